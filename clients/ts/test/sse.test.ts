// The stream parser, fed the relay's framing in chunks of every size.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
// @ts-ignore: the package's internal module, compiled beside its entry point
import { SSEParser } from "../../dist/sse.js";

type Ev = { type: string; data: string; lastEventId: string };

function parse(text: string, size: number): { events: Ev[]; retry?: number } {
  const events: Ev[] = [];
  const p = new SSEParser((e: Ev) => events.push(e));
  for (let i = 0; i < text.length; i += size) p.push(text.slice(i, i + size));
  return { events, retry: p.retry };
}

describe("SSEParser", () => {
  it("reads states, named events, comments, retry and every line ending", () => {
    const text = "retry: 2000\n\nid: 1\ndata: {\"a\":1}\n\n: ping\n\nevent: submitted\r\ndata: {\"b\":2}\r\n\r\n" +
      "id: 2\rdata: x\rdata:y\r\revent: expired\ndata\n\n";
    for (const size of [1, 2, 3, 7, 1000]) {
      const { events, retry } = parse(text, size);
      assert.equal(retry, 2000);
      assert.deepEqual(events, [
        { type: "message", data: "{\"a\":1}", lastEventId: "1" },
        { type: "submitted", data: "{\"b\":2}", lastEventId: "1" },
        { type: "message", data: "x\ny", lastEventId: "2" },
        { type: "expired", data: "", lastEventId: "2" },
      ], `chunks of ${size}`);
    }
  });

  it("dispatches nothing without data, nor an unfinished event", () => {
    assert.deepEqual(parse("event: x\n\nid: 3\n\ndata: half", 4).events, []);
  });
});
