// What only a relay that misbehaves can show: a plan whose envelope does not
// hash to its id, answers outside the contract, and a stream that answers
// 429 or drops. A tiny node:http server on 127.0.0.1 plays the relay.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import { Account, Keypair, Networks, Operation, TransactionBuilder, type Transaction } from "@stellar/stellar-sdk";
import { Relay, type WatchEvent } from "@closerelay/client";
import { rejects, until } from "./support/assert.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function close(network = Networks.TESTNET): Transaction {
  const a = Keypair.random();
  const tx = new TransactionBuilder(new Account(a.publicKey(), "1"), { fee: "100", networkPassphrase: network })
    .addOperation(Operation.accountMerge({ destination: Keypair.random().publicKey() }))
    .setTimeout(600).build();
  tx.sign(a);
  return tx;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

describe("against a fake relay", () => {
  let server: Server;
  let handler: Handler = (_req, res) => json(res, 500, {});
  const requests: { method: string; url: string; lastEventId?: string }[] = [];
  let r: Relay;
  before(async () => {
    server = createServer((req, res) => {
      requests.push({ method: req.method!, url: req.url!, lastEventId: req.headers["last-event-id"] as string | undefined });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    r = new Relay(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("signWith refuses a plan whose envelope does not hash to its id, before the signer", async () => {
    const tx = close();
    const xdr = tx.toEnvelope().toXDR("base64");
    const realId = tx.hash().toString("hex");
    const cases: [string, { network: string; xdr: string }][] = [
      ["another transaction's id", { network: "testnet", xdr }],
      ["the same envelope named on another network", { network: "mainnet", xdr }],
      ["an unknown network", { network: "pubnet", xdr }],
      ["an envelope that does not decode", { network: "testnet", xdr: "AAAA" }],
    ];
    for (const [what, plan] of cases) {
      const id = what === "another transaction's id" ? "cd".repeat(32) : realId;
      requests.length = 0;
      handler = (req, res) => (req.method === "GET" ? json(res, 200, { ok: true, ...plan }) : json(res, 500, {}));
      let called = false;
      const e = await rejects(r.signWith(id, () => { called = true; return xdr; }), 0, "MISMATCH");
      assert.equal(called, false, `${what}: the signer was called`);
      assert.deepEqual(requests.map((q) => q.method), ["GET"], `${what}: a sign was posted`);
      assert.ok(e.reason.length > 0);
    }
    // A fee-bump is no classic transaction.
    const inner = close();
    const payer = Keypair.random();
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, "200", inner, Networks.TESTNET);
    bump.sign(payer);
    handler = (_req, res) => json(res, 200, { ok: true, network: "testnet", xdr: bump.toEnvelope().toXDR("base64") });
    await rejects(r.signWith(bump.hash().toString("hex"), () => assert.fail("called")), 0, "MISMATCH");
  });

  it("UNEXPECTED for an answer outside the contract, the relay's code otherwise", async () => {
    handler = (_req, res) => { res.writeHead(200, { "Content-Type": "text/html" }); res.end("<html>portal</html>"); };
    await rejects(r.plan("ab".repeat(32)), 200, "UNEXPECTED");
    handler = (_req, res) => json(res, 200, { ok: true });
    await rejects(r.status("ab".repeat(32)), 200, "UNEXPECTED");
    handler = (_req, res) => { res.writeHead(502, { "Content-Type": "text/plain" }); res.end("bad gateway"); };
    const e = await rejects(r.publish({ network: "testnet", xdr: "AAAA" }), 502, "UNEXPECTED");
    assert.equal(e.reason, "bad gateway");
    handler = (_req, res) => json(res, 500, { ok: false, code: "MEDIATOR_NOT_CONFIGURED", reason: "the mediator is not configured" });
    await rejects(r.mediator.mint(Keypair.random().publicKey()), 500, "MEDIATOR_NOT_CONFIGURED");
    handler = (_req, res) => json(res, 429, { ok: false, code: "RATE_LIMITED", reason: "too many requests" }, { "Retry-After": "6" });
    const limited = await rejects(r.sign("ab".repeat(32), "AAAA"), 429, "RATE_LIMITED");
    assert.equal(limited.retryAfter, 6);
  });

  it("bump posts {xdr} to /api/plan/{id}/bump and reads {ok, id, hash}; anything else is UNEXPECTED or the relay's code", async () => {
    // The relay's route is not built yet: the fake answers the contract's bodies.
    const id = "ab".repeat(32);
    const hash = "cd".repeat(32);
    let body = "";
    let answer: (res: ServerResponse) => void = (res) => json(res, 200, { ok: true, id, hash });
    handler = (req, res) => {
      body = "";
      req.on("data", (c: Buffer) => { body += c.toString(); });
      req.on("end", () => answer(res));
    };
    requests.length = 0;
    assert.deepEqual(await r.bump(id, { xdr: "AAAA" }), { ok: true, id, hash });
    assert.deepEqual(requests.map((q) => `${q.method} ${q.url}`), [`POST /api/plan/${id}/bump`]);
    assert.deepEqual(JSON.parse(body), { xdr: "AAAA" });
    answer = (res) => json(res, 400, { ok: false, code: "BUMP_FEE_TOO_LOW", reason: "the fee-bump bids less than the close" });
    await rejects(r.bump(id, { xdr: "AAAA" }), 400, "BUMP_FEE_TOO_LOW");
    for (const wrong of [{ ok: true, id: "ef".repeat(32), hash }, { ok: true, id }, { ok: true, id, hash: hash.toUpperCase() }]) {
      answer = (res) => json(res, 200, wrong);
      await rejects(r.bump(id, { xdr: "AAAA" }), 200, "UNEXPECTED");
    }
  });

  it("watch: polls /status on a 429 stream, then is live again; reconnects with Last-Event-ID", async () => {
    const id = "ef".repeat(32);
    const status = (version: number, submission: unknown = null) => ({
      ok: true, id, network: "testnet", version, signers: [], weight: version, threshold: 3, ready: version >= 3,
      expiry: "2030-01-01T00:00:00Z", submit: true, submission, preflight: null, forward: null,
    });
    let streams = 0;
    let version = 1;
    let submission: unknown = null;
    requests.length = 0;
    handler = (req, res) => {
      if (req.url!.endsWith("/status")) return json(res, 200, status(version, submission));
      streams++;
      if (streams === 1) {
        res.writeHead(429, { "Content-Type": "text/plain", "Retry-After": "1" });
        return res.end("too many requests");
      }
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      const data = { network: "testnet", xdr: "AAAA", id, signers: [], weight: 3, threshold: 3, ready: true, landable: true };
      if (streams === 2) {
        // The state, then the connection drops.
        res.end(`retry: 50\n\nid: 3\ndata: ${JSON.stringify(data)}\n\n`);
        return;
      }
      // The reconnect: the same state again, the replayed outcome, then expiry.
      res.end(`id: 3\ndata: ${JSON.stringify(data)}\n\nevent: submitted\ndata: {"id":"${id}","hash":"${"12".repeat(32)}","ledger":7}\n\n` +
        `event: expired\r\ndata: {"id":"${id}"}\r\n\r\n`);
    };
    const states: { version?: number; weight: number }[] = [];
    const events: WatchEvent[] = [];
    const stop = r.watch(id, {
      onState: (s) => states.push({ version: (s as { version?: number }).version, weight: s.weight }),
      onEvent: (e) => {
        events.push(e);
        if (e.type === "polling") setTimeout(() => { version = 2; }, 150);
        if (e.type === "polling") setTimeout(() => { submission = { state: "submitted", hash: "12".repeat(32), ledger: 7 }; }, 300);
      },
      pollIntervalMs: 50,
    });
    await until(() => events.some((e) => e.type === "expired"), 10_000, "expired");
    stop();
    assert.deepEqual(events.map((e) => e.type), ["polling", "submitted", "live", "expired"]);
    assert.deepEqual(events[0], { type: "polling", data: { reason: 429 } });
    assert.deepEqual(events[1].data, { id, hash: "12".repeat(32), ledger: 7 });
    // Polled states (with version) once per version, then the stream's (version 3), once.
    assert.deepEqual(states, [{ version: 1, weight: 1 }, { version: 2, weight: 2 }, { version: undefined, weight: 3 }]);
    const ev = requests.filter((q) => q.url.endsWith("/events"));
    assert.equal(ev.length, 3);
    assert.deepEqual(ev.map((q) => q.lastEventId), [undefined, undefined, "3"]);
  });

  it("watch: a stream that answers 404 ends with not_found", async () => {
    handler = (_req, res) => { res.writeHead(404, { "Content-Type": "text/plain" }); res.end("signing request not found"); };
    const events: WatchEvent[] = [];
    r.watch("ab".repeat(32), { onEvent: (e) => events.push(e) });
    await until(() => events.length > 0, 5000, "not_found");
    await new Promise((res) => setTimeout(res, 100));
    assert.deepEqual(events, [{ type: "not_found" }]);
  });
});

describe("a stream that goes silent", () => {
  it("is taken for dead after idleTimeoutMs and reconnected, with Last-Event-ID", async () => {
    const id = "aa".repeat(32);
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers["last-event-id"] as string | undefined);
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      const data = { network: "testnet", xdr: "AAAA", id, signers: [], weight: seen.length, threshold: 3, ready: false, landable: null };
      res.write(`id: ${seen.length}\ndata: ${JSON.stringify(data)}\n\n`); // then nothing, not even a heartbeat
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const r = new Relay(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      const weights: number[] = [];
      const ctrl = new AbortController();
      r.watch(id, { onState: (s) => weights.push(s.weight), idleTimeoutMs: 150, retryMs: 20, signal: ctrl.signal });
      await until(() => weights.length >= 3, 5000, "three connections");
      ctrl.abort();
      assert.deepEqual(weights.slice(0, 3), [1, 2, 3]);
      assert.deepEqual(seen.slice(0, 3), [undefined, "1", "2"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
