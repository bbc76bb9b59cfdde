// mediator.mint and mediator.cosign against the real relay (load local runs
// it with a MEDIATOR_SECRET), with their codes, and a multisig close through
// a mediator whose forward the relay runs itself.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Account, Asset, Keypair, Memo, Networks, Operation, TransactionBuilder } from "@stellar/stellar-sdk";
import { Relay, type WatchEvent } from "@closerelay/client";
import { rejects, until } from "./support/assert.js";
import { buildClose, signXdr, startRelay, xdrOf, type TestRelay } from "./support/relay.js";

function forward(mediator: string, to: string, opts: { memo?: string; ops?: number; maxTime?: number } = {}): string {
  const b = new TransactionBuilder(new Account(mediator, "100"), { fee: "200", networkPassphrase: Networks.TESTNET })
    .addOperation(Operation.payment({ destination: to, asset: Asset.native(), amount: "1" }));
  if ((opts.ops ?? 2) === 2) b.addOperation(Operation.accountMerge({ destination: to }));
  if (opts.memo) b.addMemo(Memo.text(opts.memo));
  b.setTimebounds(0, opts.maxTime ?? Math.floor(Date.now() / 1000) + 600);
  return xdrOf(b.build());
}

describe("mediator", () => {
  let relay: TestRelay;
  let r: Relay;
  before(async () => {
    relay = await startRelay(4);
    r = new Relay(relay.url);
  });
  after(() => relay?.stop());

  it("mints flows, with and without a memo", async () => {
    const dest = relay.accounts[0].address;
    const flow = await r.mediator.mint(dest);
    assert.deepEqual(Object.keys(flow).sort(), ["flowToken", "mediatorPublicKey"]);
    assert.equal(flow.flowToken.split(".").length, 4);
    assert.equal(flow.flowToken.split(".")[2], dest);
    assert.ok(Keypair.fromPublicKey(flow.mediatorPublicKey));
    const memo = await r.mediator.mint(dest, { memo: "text:ref 42+1" });
    const parts = memo.flowToken.split(".");
    assert.equal(parts.length, 5);
    assert.equal(Buffer.from(parts[3], "base64url").toString(), "text:ref 42+1");
    await rejects(r.mediator.mint("not-an-account"), 400, "INVALID_DESTINATION");
    await rejects(r.mediator.mint(dest, { memo: "text:" }), 400, "INVALID_MEMO");
    await rejects(r.mediator.mint(dest, { memo: "id:-1" }), 400, "INVALID_MEMO");
  });

  it("co-signs a forward, and refuses with each check's code", async () => {
    const dest = relay.accounts[0].address;
    const flow = await r.mediator.mint(dest, { memo: "text:ref 7" });
    const fwd = forward(flow.mediatorPublicKey, dest, { memo: "ref 7" });
    const out = await r.mediator.cosign({ envelopeXdr: fwd, flowToken: flow.flowToken, network: "testnet" });
    assert.deepEqual(Object.keys(out).sort(), ["hash", "ok", "signedXdr"]);
    const tx = TransactionBuilder.fromXDR(out.signedXdr, Networks.TESTNET);
    assert.equal(out.hash, tx.hash().toString("hex"));
    assert.ok(Keypair.fromPublicKey(flow.mediatorPublicKey).verify(tx.hash(), tx.signatures[0].signature()));

    const cosign = (envelopeXdr: string, flowToken = flow.flowToken, network = "testnet") =>
      r.mediator.cosign({ envelopeXdr, flowToken, network: network as "testnet" });
    await rejects(cosign(""), 400, "BAD_REQUEST");
    await rejects(cosign(fwd, ""), 400, "BAD_REQUEST");
    await rejects(cosign(fwd, flow.flowToken, "public"), 400, "BAD_NETWORK");
    await rejects(cosign(fwd, flow.flowToken.replace(/.$/, (c) => (c === "0" ? "1" : "0"))), 400, "INVALID_FLOW_TOKEN");
    await rejects(cosign("AAAA"), 400, "MALFORMED_XDR");
    await rejects(cosign(forward(Keypair.random().publicKey(), dest, { memo: "ref 7" })), 400, "FORWARD_TX_SOURCE_NOT_MEDIATOR");
    await rejects(cosign(forward(flow.mediatorPublicKey, dest, { memo: "ref 7", ops: 1 })), 400, "WRONG_OPERATION_COUNT");
    await rejects(cosign(forward(flow.mediatorPublicKey, relay.accounts[1].address, { memo: "ref 7" })), 400, "FORWARD_DESTINATION_NOT_COMMITTED");
    await rejects(cosign(forward(flow.mediatorPublicKey, dest, { memo: "ref 8" })), 400, "FORWARD_MEMO_NOT_COMMITTED");
    // The other shapes, each refused by its own check (docs/API.md 6.5).
    const med = flow.mediatorPublicKey;
    const build = (ops: ReturnType<typeof Operation.payment>[], o: { bounds?: boolean } = {}) => {
      const b = new TransactionBuilder(new Account(med, "100"), { fee: "200", networkPassphrase: Networks.TESTNET });
      for (const op of ops) b.addOperation(op);
      b.addMemo(Memo.text("ref 7"));
      if (o.bounds !== false) b.setTimebounds(0, Math.floor(Date.now() / 1000) + 600);
      else b.setTimeout(0);
      return xdrOf(b.build());
    };
    const other = Keypair.random().publicKey();
    const pay = (o: { to?: string; asset?: Asset; source?: string } = {}) =>
      Operation.payment({ destination: o.to ?? dest, asset: o.asset ?? Asset.native(), amount: "1", ...(o.source ? { source: o.source } : {}) });
    const merge = (o: { to?: string; source?: string } = {}) =>
      Operation.accountMerge({ destination: o.to ?? dest, ...(o.source ? { source: o.source } : {}) });
    const cases: [string, string][] = [
      ["FORWARD_OP0_NOT_PAYMENT", build([merge(), merge()])],
      ["FORWARD_OP0_ASSET_NOT_NATIVE", build([pay({ asset: new Asset("USD", other) }), merge()])],
      ["FORWARD_OP0_SOURCE_NOT_MEDIATOR", build([pay({ source: other }), merge()])],
      ["FORWARD_OP1_NOT_ACCOUNT_MERGE", build([pay(), pay()])],
      ["FORWARD_OP1_SOURCE_NOT_MEDIATOR", build([pay(), merge({ source: other })])],
      ["FORWARD_DESTINATION_MISMATCH", build([pay(), merge({ to: other })])],
      ["MISSING_TIME_BOUNDS", build([pay(), merge()], { bounds: false })],
    ];
    for (const [code, envelopeXdr] of cases) await rejects(cosign(envelopeXdr), 400, code);
    const inner = TransactionBuilder.fromXDR(fwd, Networks.TESTNET) as ReturnType<TransactionBuilder["build"]>;
    const payer = Keypair.random();
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, "400", inner, Networks.TESTNET);
    await rejects(cosign(bump.toEnvelope().toXDR("base64")), 400, "FEE_BUMP_NOT_ALLOWED");
    await rejects(cosign("A".repeat(17_000)), 413, "PAYLOAD_TOO_LARGE");
    const far = Math.floor(Date.now() / 1000) + 7200;
    await rejects(cosign(forward(flow.mediatorPublicKey, dest, { memo: "ref 7", maxTime: far })), 400, "TIME_BOUNDS_EXCESSIVE");
  });

  it("a multisig close through a mediator, forwarded by the relay", async () => {
    const [dest, , a] = relay.accounts;
    const flow = await r.mediator.mint(dest.address, { memo: "text:deposit 99" });
    const close = buildClose(a, dest.address, { mediator: flow.mediatorPublicKey });
    // Without submit the relay cannot run the forward.
    await rejects(r.publish({ network: "testnet", xdr: xdrOf(close), flowToken: flow.flowToken }), 400, "BAD_FLOW");
    const { id } = await r.publish({ network: "testnet", xdr: xdrOf(close), submit: true, flowToken: flow.flowToken });
    const events: WatchEvent[] = [];
    const stop = r.watch(id, { onEvent: (e) => events.push(e) });
    for (const s of a.secrets.slice(0, 2)) await r.signWith(id, (xdr) => signXdr(xdr, s));
    await until(() => events.some((e) => e.type === "forwarded" || e.type === "forward_failed"), 15_000, "the forward");
    stop();
    // (A preflight event may come between, when a re-run's outcome differs.)
    const outcomes = events.filter((e) => e.type !== "preflight");
    assert.deepEqual(outcomes.map((e) => e.type), ["submitted", "forwarded"]);
    const fwd = outcomes[1].data as { id: string; hash: string; ledger: number; amount: string };
    assert.equal(fwd.id, id);
    assert.match(fwd.hash, /^[0-9a-f]{64}$/);
    assert.ok(Number(fwd.amount) > 0);
    const st = await r.status(id);
    assert.equal(st.forward?.state, "forwarded");
  });
});
