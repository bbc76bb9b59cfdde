// A real relay for the tests: `closerelaylab load local` (the relay and its
// ledger double, on loopback), started from the binary that run.ts built.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  Account, Asset, Keypair, Memo, Networks, Operation, TransactionBuilder, type Transaction,
} from "@stellar/stellar-sdk";

export interface TestAccount {
  address: string;
  /** The plan load local published for it (signed by the master). */
  plan: string;
  /** The signers' secrets, the master (the publisher) last. */
  secrets: string[];
}

/** The double's two faces the relay can read and submit through (its LEDGER_API). */
export type LedgerAPI = "horizon" | "rpc";
export const LEDGER_APIS: readonly LedgerAPI[] = ["horizon", "rpc"];

export interface TestRelay {
  url: string;
  /** The face of the double the relay reads and submits through. */
  ledgerApi: LedgerAPI;
  /** The ops listener: /metrics. */
  ops: string;
  horizon: string;
  accounts: TestAccount[];
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const p of live) p.kill("SIGKILL");
});

/**
 * Starts `closerelaylab load local` with `plans` accounts of 3 signers (weight 1, high
 * threshold 3), the relay reading and submitting through the double's `ledgerApi` face;
 * `extra` are more flags for `load local` (`--rate-limits`, `--no-mediator`).
 */
export async function startRelay(plans = 8, ledgerApi: LedgerAPI = "horizon", extra: string[] = []): Promise<TestRelay> {
  const bin = process.env.CLOSERELAYLAB;
  if (!bin) throw new Error("CLOSERELAYLAB is unset: run the tests with npm test (build-test/test/support/run.js)");
  const dir = mkdtempSync(join(process.env.CLOSERELAY_TS_TMP ?? tmpdir(), "relay-"));
  const child = spawn(bin, [
    "load", "local", "--dir", dir, "--listen", "127.0.0.1:0", "--ops", "127.0.0.1:0",
    "--plans", String(plans), "--signers", "3", "--ledger-api", ledgerApi, "--json", ...extra,
  ], { stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  let stderr = "";
  child.stderr!.on("data", (b) => { stderr += String(b); });
  const exited = new Promise<void>((res) => child.once("exit", () => { live.delete(child); res(); }));
  const ready = await new Promise<{ relay: string; ops: string; horizon: string; keys: string; ledgerApi: string }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`load local not ready in 30 s: ${stderr}`)), 30_000);
    child.once("exit", (code) => { clearTimeout(t); reject(new Error(`load local exited ${code}: ${stderr}`)); });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("{")) return;
      const r = JSON.parse(line);
      if (r.ready) { clearTimeout(t); resolve(r); }
    });
  });
  if (ready.ledgerApi !== ledgerApi) throw new Error(`load local serves LEDGER_API=${ready.ledgerApi}, not ${ledgerApi}`);
  const env = readFileSync(ready.keys, "utf8");
  const get = (k: string) => new RegExp(`(?:^|\\s)${k}='([^']*)'`, "m").exec(env)?.[1];
  const accounts: TestAccount[] = [];
  for (let n = 1; get(`ACCOUNT_${n}`); n++) {
    const secrets: string[] = [];
    for (let m = 1; get(`SECRET_${n}_${m}`); m++) secrets.push(get(`SECRET_${n}_${m}`)!);
    accounts.push({ address: get(`ACCOUNT_${n}`)!, plan: get(`PLAN_${n}`)!, secrets });
  }
  return {
    url: ready.relay,
    ledgerApi,
    ops: ready.ops,
    horizon: ready.horizon,
    accounts,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 8000);
        await exited;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The double's accounts start at sequence 1<<32: a close takes the next. */
export const SEQUENCE = "4294967296";

let memoCounter = 0;

/** A close of `acct` into `destination`, signed by the secrets given (default: the master). */
export function buildClose(acct: TestAccount, destination: string, opts: {
  sign?: string[]; maxTime?: number; source?: string; memo?: string; mediator?: string;
} = {}): Transaction {
  const src = new Account(opts.source ?? acct.address, SEQUENCE);
  const b = new TransactionBuilder(src, { fee: "100", networkPassphrase: Networks.TESTNET });
  if (opts.mediator) {
    b.addOperation(Operation.createAccount({ destination: opts.mediator, startingBalance: "2", source: acct.address }));
    b.addOperation(Operation.accountMerge({ destination: opts.mediator, source: acct.address }));
  } else {
    b.addOperation(Operation.accountMerge({ destination, ...(opts.source ? { source: acct.address } : {}) }));
  }
  // A memo of its own makes each close another transaction, so another plan.
  b.addMemo(Memo.text(opts.memo ?? `ts ${process.pid} ${++memoCounter}`));
  if (opts.maxTime !== undefined) b.setTimebounds(0, opts.maxTime);
  else b.setTimeout(3600);
  const tx = b.build();
  for (const s of opts.sign ?? [acct.secrets[acct.secrets.length - 1]]) tx.sign(Keypair.fromSecret(s));
  return tx;
}

/** `xdr` (the plan's envelope) signed by `secret` on testnet. */
export function signXdr(xdr: string, secret: string): string {
  const tx = TransactionBuilder.fromXDR(xdr, Networks.TESTNET) as Transaction;
  tx.sign(Keypair.fromSecret(secret));
  return tx.toEnvelope().toXDR("base64");
}

/** A payment: not a close. */
export function buildPayment(acct: TestAccount, destination: string): Transaction {
  const tx = new TransactionBuilder(new Account(acct.address, SEQUENCE), { fee: "100", networkPassphrase: Networks.TESTNET })
    .addOperation(Operation.payment({ destination, asset: Asset.native(), amount: "1" }))
    .setTimeout(3600).build();
  tx.sign(Keypair.fromSecret(acct.secrets[acct.secrets.length - 1]));
  return tx;
}

export function xdrOf(tx: Transaction): string {
  return tx.toEnvelope().toXDR("base64");
}

export function idOf(tx: Transaction): string {
  return tx.hash().toString("hex");
}
