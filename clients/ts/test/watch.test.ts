// watch against the real relay: states, the relay's submission, expiry, the
// 50-subscriber cap (503) with the fall-back to polling /status, 404, stop.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Relay, type PlanState, type StatusAnswer, type WatchEvent } from "@closerelay/client";
import { until } from "./support/assert.js";
import { LEDGER_APIS, buildClose, signXdr, startRelay, xdrOf, type TestRelay } from "./support/relay.js";

for (const ledgerApi of LEDGER_APIS) describe(`watch (the relay on the double's ${ledgerApi} face)`, () => {
  let relay: TestRelay;
  let r: Relay;
  before(async () => {
    relay = await startRelay(8, ledgerApi);
    r = new Relay(relay.url);
  });
  after(() => relay?.stop());

  // closerelay_stream_subscribers, read from the ops listener; kept fresh in
  // the background while a test waits on it.
  let lastSubscribers = -1;
  async function subscribers(): Promise<number> {
    const text = await (await fetch(`${relay.ops}/metrics`)).text();
    const m = /^closerelay_stream_subscribers (\d+)/m.exec(text);
    lastSubscribers = m ? Number(m[1]) : -1;
    return lastSubscribers;
  }
  let sampler: ReturnType<typeof setInterval> | undefined;
  before(() => { sampler = setInterval(() => void subscribers().catch(() => {}), 50); });
  after(() => clearInterval(sampler));

  it("tells each state and the relay's submission, and stops when told", async () => {
    const [a, dest] = relay.accounts;
    const { id } = await r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address)), submit: true });
    const states: PlanState[] = [];
    const events: WatchEvent[] = [];
    const stop = r.watch(id, { onState: (s) => states.push(s as PlanState), onEvent: (e) => events.push(e) });
    await until(() => states.length === 1, 5000, "the first state");
    assert.deepEqual(Object.keys(states[0]).sort(), ["id", "landable", "network", "ready", "signers", "threshold", "weight", "xdr"]);
    assert.deepEqual([states[0].id, states[0].weight, states[0].threshold, states[0].ready], [id, 1, 3, false]);
    const { xdr } = await r.plan(id);
    // One at a time: a slow subscriber is sent the newest state, skipping others.
    await r.sign(id, signXdr(xdr, a.secrets[0]));
    await until(() => states.length === 2, 5000, "the second state");
    await r.sign(id, signXdr(xdr, a.secrets[1]));
    await until(() => events.some((e) => e.type === "submitted"), 10_000, "submitted");
    assert.deepEqual(states.map((s) => s.weight), [1, 2, 3]);
    const sub = events.find((e) => e.type === "submitted")!;
    assert.equal(sub.type, "submitted");
    assert.equal((sub.data as { id: string }).id, id);
    assert.match((sub.data as { hash: string }).hash, /^[0-9a-f]{64}$/);
    assert.ok(Number.isInteger((sub.data as { ledger: number }).ledger));
    const st = await r.status(id);
    assert.equal(st.submission?.state, "submitted");
    assert.equal(await subscribers(), 1);
    stop();
    await until(() => lastSubscribers === 0, 5000, "the relay to drop the stream");
    const n = states.length + events.length;
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(states.length + events.length, n, "a callback after stop");
  });

  it("tells expired and ends", async () => {
    const [, , a, dest] = relay.accounts;
    // The plan's expiry is maxTime - 60 s: this one ends in about 2 s.
    const maxTime = Math.floor(Date.now() / 1000) + 62;
    const { id } = await r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address, { maxTime })) });
    const events: WatchEvent[] = [];
    r.watch(id, { onEvent: (e) => events.push(e) });
    await until(() => events.length > 0, 10_000, "expired");
    assert.deepEqual(events, [{ type: "expired", data: { id } }]);
  });

  it("falls back to polling /status at the 50-subscriber cap, and is live again after", async () => {
    const [, , , a, dest] = relay.accounts;
    const { id } = await r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address)) });
    const hold = new AbortController();
    const streams = await Promise.all(Array.from({ length: 50 }, async () => {
      const res = await fetch(`${relay.url}/api/plan/${id}/events`, { signal: hold.signal });
      assert.equal(res.status, 200);
      return res;
    }));
    try {
      const states: (PlanState | StatusAnswer)[] = [];
      const events: WatchEvent[] = [];
      const ctrl = new AbortController();
      r.watch(id, { onState: (s) => states.push(s), onEvent: (e) => events.push(e), signal: ctrl.signal, pollIntervalMs: 100 });
      await until(() => events.length > 0 && states.length > 0, 5000, "polling");
      assert.deepEqual(events, [{ type: "polling", data: { reason: 503 } }]);
      const polled = states[0] as StatusAnswer;
      assert.deepEqual([polled.ok, polled.id, polled.version, polled.weight], [true, id, 1, 1]);
      // A change while polling reaches onState from /status.
      const { xdr } = await r.plan(id);
      await r.sign(id, signXdr(xdr, a.secrets[0]));
      await until(() => states.length === 2, 5000, "the polled change");
      assert.equal((states[1] as StatusAnswer).version, 2);
      // Free the slots: after the 503's Retry-After (5 s) the watch is live again.
      hold.abort();
      await Promise.allSettled(streams.map((s) => s.body?.cancel()));
      await until(() => events.some((e) => e.type === "live"), 10_000, "live");
      assert.deepEqual(events.map((e) => e.type), ["polling", "live"]);
      assert.deepEqual(events[1], { type: "live", data: {} });
      // Back on the stream: the state it opens with is already told (version 2), the next one is the stream's.
      await r.sign(id, signXdr(xdr, a.secrets[1]));
      await until(() => states.length === 3, 5000, "the streamed change");
      assert.deepEqual(Object.keys(states[2]).sort(), ["id", "landable", "network", "ready", "signers", "threshold", "weight", "xdr"]);
      assert.equal(states[2].weight, 3);
      ctrl.abort();
    } finally {
      hold.abort();
    }
  });

  it("tells not_found for an unknown plan, and a watch aborted first does nothing", async () => {
    const events: WatchEvent[] = [];
    r.watch("ab".repeat(32), { onEvent: (e) => events.push(e) });
    await until(() => events.length > 0, 5000, "not_found");
    assert.deepEqual(events, [{ type: "not_found" }]);
    const aborted = AbortSignal.abort();
    let calls = 0;
    const stop = r.watch(relay.accounts[0].plan, { onState: () => calls++, onEvent: () => calls++, signal: aborted });
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(calls, 0);
    stop();
  });
});
