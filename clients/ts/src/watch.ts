import { RelayError } from "./errors.js";
import type { Relay } from "./relay.js";
import { errorOf, messageOf, retryAfterOf } from "./relay.js";
import { SSEParser, type SSEEvent } from "./sse.js";
import type {
  ExpiredEvent, ForwardFailedEvent, ForwardedEvent, PlanState, PreflightEvent, StatusAnswer,
  SubmitFailedEvent, SubmittedEvent,
} from "./types.js";

/** What `onEvent` receives: `type` is the stream's event name, or the client's. */
export type WatchEvent =
  | { type: "expired"; data: ExpiredEvent }
  | { type: "submitted"; data: SubmittedEvent }
  | { type: "submit_failed"; data: SubmitFailedEvent }
  | { type: "forwarded"; data: ForwardedEvent }
  | { type: "forward_failed"; data: ForwardFailedEvent }
  | { type: "preflight"; data: PreflightEvent }
  /** The stream refused the watcher (`reason`: 503 or 429): the client polls /status. */
  | { type: "polling"; data: { reason: number } }
  /** The stream answers again after polling. */
  | { type: "live"; data: Record<string, never> }
  /** The stream answered 404: the plan is unknown or gone; the watch has ended. */
  | { type: "not_found"; data?: undefined };

/** `watch`'s options; all optional. */
export interface WatchOptions {
  /** Each state: the stream's data as sent (PlanState), or, while polling, each /status answer whose version changed. */
  onState?: (state: PlanState | StatusAnswer) => void;
  /** Named events (see WatchEvent). */
  onEvent?: (event: WatchEvent) => void;
  /** Aborting it stops the watch, as the returned function does. */
  signal?: AbortSignal;
  /** A failed connection or poll that the watch retries (it keeps going), and an error thrown by a callback. */
  onError?: (err: unknown) => void;
  /** How often /status is polled while the stream refuses the watcher; default 2000 ms. */
  pollIntervalMs?: number;
  /** The first reconnect delay (the stream's `retry:` replaces it); default 500 ms, doubling up to maxRetryMs. */
  retryMs?: number;
  /** The longest reconnect delay; default 30000 ms. */
  maxRetryMs?: number;
  /** A stream silent this long (no byte, not even a heartbeat) is taken for dead; default 65000 ms, 0 disables. */
  idleTimeoutMs?: number;
  /** How long to poll after a 503 or 429 without Retry-After; default 5000 ms. */
  fallbackMs?: number;
}

type End = "expired" | "not_found" | "stopped";

/** @internal Relay.watch. */
export function watchPlan(relay: Relay, id: string, o: WatchOptions): () => void {
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  if (o.signal) {
    if (o.signal.aborted) return stop;
    o.signal.addEventListener("abort", stop, { once: true });
  }
  const w = new Watcher(relay, id, o, ctrl.signal);
  void w.run().finally(() => o.signal?.removeEventListener("abort", stop));
  return stop;
}

class Watcher {
  private readonly pollInterval: number;
  private readonly retryMin: number;
  private readonly retryMax: number;
  private readonly idleTimeout: number;
  private readonly fallback: number;

  private lastVersion = -1;   // the version of the last state delivered
  private seen = false;       // a state was delivered
  private lastEventId = "";
  private serverRetry: number | undefined;
  private polling = false;
  // The last outcome told per family ("submission", "forward"), so that the
  // replay a new stream sends after its state is not told twice, and a
  // /status answer tells an outcome once.
  private readonly told = new Map<string, string>();

  constructor(
    private readonly relay: Relay,
    private readonly id: string,
    private readonly o: WatchOptions,
    private readonly signal: AbortSignal,
  ) {
    this.pollInterval = o.pollIntervalMs ?? 2000;
    this.retryMin = o.retryMs ?? 500;
    this.retryMax = Math.max(o.maxRetryMs ?? 30000, this.retryMin);
    this.idleTimeout = o.idleTimeoutMs ?? 65000;
    this.fallback = o.fallbackMs ?? 5000;
  }

  async run(): Promise<void> {
    let backoff = this.retryMin;
    while (!this.signal.aborted) {
      let end: End | undefined;
      let delivered = false;
      try {
        const r = await this.connect();
        if (r.kind === "refused") {
          const wait = (r.retryAfter ?? this.fallback / 1000) * 1000;
          if (!this.polling) {
            this.polling = true;
            this.event({ type: "polling", data: { reason: r.status } });
          }
          end = await this.poll(Date.now() + wait);
          if (end) break;
          continue;
        }
        if (r.kind === "not_found") {
          this.event({ type: "not_found" });
          break;
        }
        if (this.polling) {
          this.polling = false;
          this.event({ type: "live", data: {} });
        }
        const s = await this.read(r.res);
        delivered = s.delivered;
        end = s.end;
      } catch (e) {
        if (this.signal.aborted) break;
        this.error(e);
      }
      if (end) break;
      if (delivered) backoff = this.serverRetry ?? this.retryMin;
      const wait = backoff;
      backoff = Math.min(2 * backoff, this.retryMax);
      await sleep(wait, this.signal);
    }
  }

  private async connect(): Promise<
    { kind: "live"; res: Response } | { kind: "refused"; status: number; retryAfter?: number } | { kind: "not_found" }
  > {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (this.lastEventId !== "") headers["Last-Event-ID"] = this.lastEventId;
    const res = await this.relay.send(`/api/plan/${encodeURIComponent(this.id)}/events`, { headers, signal: this.signal });
    if (res.status === 200 && (res.headers.get("content-type") ?? "").startsWith("text/event-stream") && res.body) {
      return { kind: "live", res };
    }
    const text = await res.text().catch(() => "");
    if (res.status === 404) return { kind: "not_found" };
    if (res.status === 503 || res.status === 429) {
      const retryAfter = retryAfterOf(res);
      return retryAfter === undefined ? { kind: "refused", status: res.status } : { kind: "refused", status: res.status, retryAfter };
    }
    if (res.status === 200) throw new RelayError(200, "UNEXPECTED", `the event stream answered Content-Type ${res.headers.get("content-type")}`);
    throw errorOf(res, undefined, text);
  }

  /** Reads one connection until it ends; `end` when the watch is over. */
  private async read(res: Response): Promise<{ delivered: boolean; end?: End }> {
    const conn = new AbortController();
    const onAbort = () => conn.abort();
    this.signal.addEventListener("abort", onAbort, { once: true });
    const reader = res.body!.getReader();
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (this.idleTimeout <= 0) return;
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => conn.abort(), this.idleTimeout);
    };
    conn.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
    let delivered = false;
    let end: End | undefined;
    let fresh = 0; // events seen on this connection: the replay comes first
    const parser = new SSEParser((ev) => {
      if (end) return;
      fresh++;
      const r = this.onStreamEvent(ev, fresh <= 3);
      if (r.delivered) delivered = true;
      if (r.end) end = r.end;
    });
    const decoder = new TextDecoder();
    arm();
    try {
      while (!end) {
        const { value, done } = await reader.read();
        if (done) break;
        arm();
        parser.push(decoder.decode(value, { stream: true }));
        if (parser.retry !== undefined) this.serverRetry = parser.retry;
        this.lastEventId = parser.lastEventId;
      }
    } catch (e) {
      if (!this.signal.aborted && !conn.signal.aborted) this.error(new RelayError(0, "NETWORK", `the event stream was cut: ${messageOf(e)}`, { cause: e }));
    } finally {
      if (idle !== undefined) clearTimeout(idle);
      this.signal.removeEventListener("abort", onAbort);
      if (end) conn.abort();
    }
    if (this.signal.aborted) end = "stopped";
    return end ? { delivered, end } : { delivered };
  }

  private onStreamEvent(ev: SSEEvent, replay: boolean): { delivered?: boolean; end?: End } {
    let data: unknown;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return {};
    }
    if (data === null || typeof data !== "object") return {};
    const d = data as Record<string, unknown>;
    if (typeof d.id === "string" && d.id.toLowerCase() !== this.id.toLowerCase()) return {};
    switch (ev.type) {
      case "message": {
        const version = /^[0-9]+$/.test(ev.lastEventId) ? Number(ev.lastEventId) : -1;
        if (version !== -1 && version === this.lastVersion) return { delivered: true }; // the reconnect's current state
        if (version !== -1) this.lastVersion = version;
        this.seen = true;
        this.state(d as unknown as PlanState);
        return { delivered: true };
      }
      case "expired":
        this.event({ type: "expired", data: d as unknown as ExpiredEvent });
        return { delivered: true, end: "expired" };
      case "submitted":
      case "submit_failed":
      case "forwarded":
      case "forward_failed": {
        const family = ev.type.startsWith("submit") ? "submission" : "forward";
        const key = `${ev.type}:${String(d.hash ?? d.code ?? "")}`;
        if (replay && this.told.get(family) === key) return { delivered: true };
        this.told.set(family, key);
        this.event({ type: ev.type, data: d } as unknown as WatchEvent);
        return { delivered: true };
      }
      default:
        this.event({ type: ev.type, data: d } as unknown as WatchEvent);
        return { delivered: true };
    }
  }

  /** Polls /status until `deadline`; `end` when the plan is gone or the watch stopped. */
  private async poll(deadline: number): Promise<End | undefined> {
    for (;;) {
      if (this.signal.aborted) return "stopped";
      let wait = this.pollInterval;
      try {
        const st = await this.relay.request<StatusAnswer>(
          "GET", `/api/plan/${encodeURIComponent(this.id)}/status`, undefined,
          (a) => a.ok === true && typeof a.version === "number", this.signal);
        if (st.version !== this.lastVersion) {
          this.lastVersion = st.version;
          this.seen = true;
          this.state(st);
        }
        this.derive(st);
      } catch (e) {
        if (this.signal.aborted) return "stopped";
        if (e instanceof RelayError && e.status === 404) {
          if (this.seen) this.event({ type: "expired", data: { id: this.id.toLowerCase() } });
          else this.event({ type: "not_found" });
          return this.seen ? "expired" : "not_found";
        }
        if (e instanceof RelayError && e.status === 429 && e.retryAfter !== undefined) wait = Math.max(wait, e.retryAfter * 1000);
        this.error(e);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      await sleep(Math.min(wait, remaining), this.signal);
      if (Date.now() >= deadline) return this.signal.aborted ? "stopped" : undefined;
    }
  }

  /** The named events a /status answer tells: an outcome of the submission or the forward. */
  private derive(st: StatusAnswer): void {
    const id = st.id;
    const s = st.submission;
    // A new try (pending again) may end as the last one did: tell it again.
    if (s?.state === "pending") this.told.delete("submission");
    if (st.forward?.state === "pending") this.told.delete("forward");
    if (s && s.state === "submitted") this.tell("submission", { type: "submitted", data: { id, hash: s.hash, ledger: s.ledger } }, s.hash);
    if (s && (s.state === "failed" || s.state === "blocked")) {
      this.tell("submission", {
        type: "submit_failed",
        data: { id, code: s.code, reason: s.state === "blocked" ? `not submitted: the close is blocked (${s.code})` : `the ledger refused the close (${s.code})` },
      }, s.code);
    }
    const f = st.forward;
    if (f && f.state === "forwarded") this.tell("forward", { type: "forwarded", data: { id, hash: f.hash, ledger: f.ledger, amount: f.amount } }, f.hash);
    if (f && f.state === "failed") this.tell("forward", { type: "forward_failed", data: { id, code: f.code, reason: `the forward failed (${f.code})` } }, f.code);
  }

  private tell(family: string, ev: WatchEvent, what: string): void {
    const key = `${ev.type}:${what}`;
    if (this.told.get(family) === key) return;
    this.told.set(family, key);
    this.event(ev);
  }

  private state(s: PlanState | StatusAnswer): void {
    if (this.signal.aborted) return;
    try {
      this.o.onState?.(s);
    } catch (e) {
      this.error(e);
    }
  }

  private event(ev: WatchEvent): void {
    if (this.signal.aborted) return;
    try {
      this.o.onEvent?.(ev);
    } catch (e) {
      this.error(e);
    }
  }

  private error(e: unknown): void {
    if (this.signal.aborted) return;
    try {
      this.o.onError?.(e);
    } catch {
      // an onError that throws has nowhere further to go
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
