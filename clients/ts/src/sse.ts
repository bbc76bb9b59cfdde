// A Server-Sent Events parser (the HTML standard's "event stream
// interpretation"), fed decoded text in chunks of any size.

/** One dispatched event. */
export interface SSEEvent {
  /** The event's name; "message" for an unnamed one. */
  type: string;
  data: string;
  /** The last event id seen on the stream so far. */
  lastEventId: string;
}

export class SSEParser {
  /** The last `id:` seen: sent back as Last-Event-ID on reconnect. */
  lastEventId = "";
  /** The stream's `retry:` field in milliseconds, once it sent one. */
  retry: number | undefined;

  private buf = "";
  private skipLF = false;
  private data: string[] = [];
  private type = "";
  private readonly emit: (ev: SSEEvent) => void;

  constructor(emit: (ev: SSEEvent) => void) {
    this.emit = emit;
  }

  push(chunk: string): void {
    let s = this.buf + chunk;
    this.buf = "";
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 10 && this.skipLF && i === start) {
        // The LF of a CRLF split across chunks (or of this one).
        this.skipLF = false;
        start = i + 1;
        continue;
      }
      this.skipLF = false;
      if (c === 10 || c === 13) {
        this.line(s.slice(start, i));
        if (c === 13) {
          if (i + 1 < s.length && s.charCodeAt(i + 1) === 10) i++;
          else if (i + 1 === s.length) this.skipLF = true;
        }
        start = i + 1;
      }
    }
    this.buf = s.slice(start);
    s = "";
  }

  private line(l: string): void {
    if (l === "") {
      this.dispatch();
      return;
    }
    if (l.charCodeAt(0) === 58) return; // ":" a comment (the heartbeat)
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? "" : l.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "event":
        this.type = value;
        break;
      case "data":
        this.data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.lastEventId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
    }
  }

  private dispatch(): void {
    const type = this.type || "message";
    const data = this.data;
    this.type = "";
    this.data = [];
    if (data.length === 0) return;
    this.emit({ type, data: data.join("\n"), lastEventId: this.lastEventId });
  }
}
