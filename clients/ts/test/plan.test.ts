// publish, plan, status, ready, sign and signWith against the real relay,
// with the codes each can meet.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { Keypair, Networks, TransactionBuilder, type Transaction } from "@stellar/stellar-sdk";
import { Relay, RelayError } from "@closerelay/client";
import { rejects } from "./support/assert.js";
import { LEDGER_APIS, buildClose, buildPayment, idOf, signXdr, startRelay, xdrOf, type TestRelay } from "./support/relay.js";

const UNKNOWN = "ab".repeat(32);

for (const ledgerApi of LEDGER_APIS) describe(`plan routes (the relay on the double's ${ledgerApi} face)`, () => {
  let relay: TestRelay;
  let r: Relay;
  before(async () => {
    relay = await startRelay(8, ledgerApi);
    r = new Relay(relay.url);
  });
  after(() => relay?.stop());

  it(`the relay reads and submits through the double's ${ledgerApi} face`, async () => {
    const text = await (await fetch(`${relay.ops}/metrics`)).text();
    assert.match(text, new RegExp(`^closerelay_ledger_api_info\\{backend="${ledgerApi}",network="testnet"\\} 1$`, "m"));
  });

  it("publishes, reads, signs and hands out the submit-ready envelope", async () => {
    const [a, dest] = relay.accounts;
    const tx = buildClose(a, dest.address);
    const pub = await r.publish({ network: "testnet", xdr: xdrOf(tx) });
    assert.deepEqual(pub, { ok: true, id: idOf(tx) });
    // A re-publish merges and answers the same id.
    assert.deepEqual(await r.publish({ network: "testnet", xdr: xdrOf(tx) }), pub);

    const plan = await r.plan(pub.id);
    assert.deepEqual(Object.keys(plan).sort(), ["network", "ok", "xdr"]);
    assert.equal(plan.ok, true);
    assert.equal(plan.network, "testnet");

    const st = await r.status(pub.id.toUpperCase()); // ids match case-insensitively
    assert.equal(st.ok, true);
    assert.equal(st.id, pub.id);
    assert.equal(st.version, 1);
    assert.deepEqual([st.weight, st.threshold, st.ready, st.submit], [1, 3, false, false]);
    assert.equal(st.submission, null);
    assert.equal(st.forward, null);
    assert.equal(st.preflight?.state, "landable");
    assert.ok(!Number.isNaN(Date.parse(st.expiry)));

    const notReady = await rejects(r.ready(pub.id), 409, "NOT_READY");
    assert.match(notReady.reason, /weight 1 of threshold 3/);

    const signed = await r.sign(pub.id, signXdr(plan.xdr, a.secrets[0]));
    assert.equal(signed.ok, true);
    assert.deepEqual([signed.weight, signed.threshold, signed.ready, signed.landable], [2, 3, false, true]);
    assert.equal(signed.signers.length, 2);
    assert.ok(signed.signers.includes(Keypair.fromSecret(a.secrets[0]).publicKey()));

    // signWith: the wallet's signer is handed the envelope and the network passphrase.
    let seen: { xdr: string; networkPassphrase: string } | undefined;
    const done = await r.signWith(pub.id, async (xdr, { networkPassphrase }) => {
      seen = { xdr, networkPassphrase };
      const t = TransactionBuilder.fromXDR(xdr, networkPassphrase) as Transaction;
      t.sign(Keypair.fromSecret(a.secrets[1]));
      return { signedTxXdr: t.toEnvelope().toXDR("base64") }; // as Stellar Wallets Kit answers
    });
    assert.equal(seen?.networkPassphrase, Networks.TESTNET);
    assert.equal(seen?.xdr, signed.xdr);
    assert.deepEqual([done.weight, done.threshold, done.ready], [3, 3, true]);

    const ready = await r.ready(pub.id);
    assert.deepEqual(Object.keys(ready).sort(), ["id", "network", "ok", "signers", "threshold", "weight", "xdr"]);
    assert.deepEqual([ready.id, ready.weight, ready.threshold, ready.signers.length], [pub.id, 3, 3, 3]);
    assert.equal((await r.status(pub.id)).version, 3);
  });

  it("signWith takes a signer that answers a string", async () => {
    const [, , a, dest] = relay.accounts;
    const { id } = await r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address)) });
    const out = await r.signWith(id, (xdr) => signXdr(xdr, a.secrets[0]));
    assert.equal(out.weight, 2);
  });

  it("signWith refuses a signer that throws or answers anything else, and posts nothing", async () => {
    const [, , a, dest] = relay.accounts;
    const { id } = await r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address)) });
    const e = await rejects(r.signWith(id, () => { throw new Error("the user declined"); }), 0, "SIGNER");
    assert.match(e.reason, /declined/);
    await rejects(r.signWith(id, () => 42 as unknown as string), 0, "SIGNER");
    await rejects(r.signWith(id, async () => ({ signedTxXdr: 7 }) as unknown as string), 0, "SIGNER");
    await rejects(r.signWith(id, async () => ({ xdr: "AAAA" }) as unknown as string), 0, "SIGNER");
    assert.equal((await r.status(id)).version, 1);
  });

  it("publish: each refusal with its status, code and reason", async () => {
    const [, , , a, dest, b] = relay.accounts;
    const close = xdrOf(buildClose(a, dest.address));
    await rejects(r.publish({ network: "testnet", xdr: "" }), 400, "BAD_XDR");
    await rejects(r.publish({ network: "testnet", xdr: "A".repeat(12_004) }), 400, "BAD_XDR");
    await rejects(r.publish({ network: "testnet", xdr: "A".repeat(17_000) }), 413, "PAYLOAD_TOO_LARGE");
    await rejects(r.publish({ network: "public" as "testnet", xdr: close }), 400, "BAD_NETWORK");
    await rejects(r.publish({ network: "testnet", xdr: close, submit: "yes" as unknown as boolean }), 400, "BAD_REQUEST");
    await rejects(r.publish({ network: "testnet", xdr: "AAAA" }), 400, "NOT_A_CLOSE");
    await rejects(r.publish({ network: "testnet", xdr: xdrOf(buildPayment(a, dest.address)) }), 400, "NOT_A_CLOSE");
    const past = Math.floor(Date.now() / 1000) - 10;
    await rejects(r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address, { maxTime: past })) }), 400, "EXPIRED");
    // A fee payer other than the closing account: the relay cannot submit it.
    const payer = xdrOf(buildClose(a, dest.address, { source: b.address }));
    await rejects(r.publish({ network: "testnet", xdr: payer, submit: true }), 400, "SUBMIT_UNSUPPORTED");
    await rejects(r.publish({ network: "testnet", xdr: close, flowToken: "x.y.z" }), 400, "BAD_FLOW");
    await rejects(r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address, { sign: [] })) }), 400, "UNSIGNED");
    const stranger = Keypair.random();
    const nobody = { address: stranger.publicKey(), plan: "", secrets: [stranger.secret()] };
    await rejects(r.publish({ network: "testnet", xdr: xdrOf(buildClose(nobody, dest.address)) }), 400, "ACCOUNT_UNREACHABLE");
    // A re-publish carrying a signature of no signer of the account.
    const tx = buildClose(a, dest.address);
    await r.publish({ network: "testnet", xdr: xdrOf(tx) });
    tx.sign(Keypair.random());
    await rejects(r.publish({ network: "testnet", xdr: xdrOf(tx) }), 400, "REJECTED");
  });

  it("publish: CAPACITY once the account has PLANS_PER_ACCOUNT plans open", async () => {
    const a = relay.accounts[6];
    const dest = relay.accounts[7];
    let err: unknown;
    for (let i = 0; i < 6 && err === undefined; i++) {
      await r.publish({ network: "testnet", xdr: xdrOf(buildClose(a, dest.address)) }).catch((e) => { err = e; });
    }
    assert.ok(err instanceof RelayError, "no refusal after 6 plans of one account");
    await rejects(Promise.reject(err), 400, "CAPACITY");
  });

  it("plan, status, ready and sign: NOT_FOUND for an unknown or malformed id", async () => {
    for (const id of [UNKNOWN, "not-an-id", "../openapi.json"]) {
      await rejects(r.plan(id), 404, "NOT_FOUND");
      await rejects(r.status(id), 404, "NOT_FOUND");
      await rejects(r.ready(id), 404, "NOT_FOUND");
      await rejects(r.sign(id, "AAAA"), 404, "NOT_FOUND");
      await rejects(r.signWith(id, () => assert.fail("the signer was called")), 404, "NOT_FOUND");
    }
  });

  it("sign: BAD_XDR and REJECTED", async () => {
    const [a] = relay.accounts;
    await rejects(r.sign(a.plan, ""), 400, "BAD_XDR");
    await rejects(r.sign(a.plan, "not base64 xdr"), 400, "BAD_XDR");
    await rejects(r.sign(a.plan, "A".repeat(17_000)), 413, "PAYLOAD_TOO_LARGE");
    const plan = await r.plan(a.plan);
    await rejects(r.sign(a.plan, signXdr(plan.xdr, Keypair.random().secret())), 400, "REJECTED");
    // Another transaction than the plan's.
    const other = xdrOf(buildClose(a, relay.accounts[1].address, { sign: [a.secrets[0]] }));
    await rejects(r.sign(a.plan, other), 400, "REJECTED");
  });

  it("NETWORK, status 0, when no relay answers", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const none = new Relay(`http://127.0.0.1:${port}`);
    const e = await rejects(none.plan(UNKNOWN), 0, "NETWORK");
    assert.match(e.reason, /127\.0\.0\.1/);
    await rejects(none.publish({ network: "testnet", xdr: "AAAA" }), 0, "NETWORK");
    await rejects(none.mediator.mint(relay.accounts[0].address), 0, "NETWORK");
  });

  it("uses the fetch it is given", async () => {
    const urls: string[] = [];
    const mine = new Relay(`${relay.url}/`, { fetch: (u, init) => { urls.push(u); return fetch(u, init); } });
    await mine.status(relay.accounts[0].plan);
    assert.deepEqual(urls, [`${relay.url}/api/plan/${relay.accounts[0].plan}/status`]);
    assert.throws(() => new Relay("ftp://example.org"), TypeError);
  });
});
