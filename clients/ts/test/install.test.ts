// The package as a wallet gets it: `npm pack`'s tarball installed into an
// empty project (offline, from the npm cache `npm ci` filled), next to the
// peer SDK; scripts there publish, sign to the threshold with signWith and
// watch a plan until the relay has submitted it, against the real relay.
// The scripts are docs/javascript.md's snippet and this package's
// README snippets, run as they are written (the relay's address put in),
// between a prelude that builds the close and an epilogue that has the last
// co-signer sign and waits for the submission.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Keypair } from "@stellar/stellar-sdk";
import { Relay } from "@closerelay/client";
import { startRelay, type TestRelay } from "./support/relay.js";

const root = fileURLToPath(new URL("../../", import.meta.url)); // clients/ts
const repo = join(root, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const PLACEHOLDER = `"https://relay.example.org"`;

/** The fenced blocks of `lang` in `markdown`, in order (the section from `heading` on, when given). */
function fenced(markdown: string, lang: string, heading?: string): string[] {
  let text = markdown;
  if (heading) {
    const at = text.indexOf(`\n${heading}\n`);
    assert.ok(at >= 0, `no heading ${heading}`);
    text = text.slice(at + 1);
    const next = text.slice(heading.length).search(/\n## /);
    if (next >= 0) text = text.slice(0, heading.length + next);
  }
  const re = new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm");
  return [...text.matchAll(re)].map((m) => m[1]);
}

// A Stellar Wallets Kit stand-in, installed into the project as that
// package: it signs with the secret of the address it is asked for.
const KIT = `import { Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
const { secrets } = JSON.parse(process.env.CLOSE_ENV);
export const StellarWalletsKit = {
  async signTransaction(xdr, { networkPassphrase, address }) {
    const tx = TransactionBuilder.fromXDR(xdr, networkPassphrase);
    tx.sign(Keypair.fromSecret(secrets[address]));
    return { signedTxXdr: tx.toXDR() };
  },
};
`;

// Before the snippet: the close (an account merge signed by the master),
// as \`tx\` and \`xdr\`, and the first co-signer as \`address\`.
const PRELUDE = `import { Account, Keypair, Memo, Networks, Operation, TransactionBuilder } from "@stellar/stellar-sdk";
const env = JSON.parse(process.env.CLOSE_ENV);
const lines = [];
const print = console.log;
console.log = (...a) => { lines.push(a.join(" ")); print(...a); };
const tx = new TransactionBuilder(new Account(env.account, "4294967296"), { fee: "100", networkPassphrase: Networks.TESTNET })
  .addOperation(Operation.accountMerge({ destination: env.destination }))
  .addMemo(Memo.text(env.memo))
  .setTimeout(600)
  .build();
tx.sign(Keypair.fromSecret(env.master));
const xdr = tx.toXDR();
const address = env.cosigners[0];
`;

// After it: the second co-signer signs (the threshold is 3), and the script
// waits for the watch to tell the submission, then stops it.
const EPILOGUE = `
const last = await relay.signWith(id, (x, o) => StellarWalletsKit.signTransaction(x, { ...o, address: env.cosigners[1] }));
console.log(\`then weight \${last.weight} of \${last.threshold}\`, last.ready ? "ready" : "");
const end = Date.now() + 30_000;
while (!lines.some((l) => l.startsWith(env.done))) {
  if (Date.now() > end) { console.error("no submission told in 30 s"); process.exit(1); }
  await new Promise((r) => setTimeout(r, 50));
}
stop();
const st = await relay.status(id);
console.log(\`plan \${id} \${st.submission.state} \${st.submission.hash}\`);
`;

describe("the npm pack tarball, installed into an empty project", () => {
  let relay: TestRelay;
  let app: string;
  before(async () => {
    relay = await startRelay(4);
    const tmp = mkdtempSync(join(process.env.CLOSERELAY_TS_TMP ?? tmpdir(), "install-"));
    // dist/ is built by npm test's pretest; the tarball is what npm publish would ship.
    const packed = JSON.parse(execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], { cwd: root, encoding: "utf8" }));
    const tarball = join(tmp, packed[0].filename);
    app = join(tmp, "app");
    mkdirSync(join(app, "kit"), { recursive: true });
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "wallet", private: true, type: "module" }));
    writeFileSync(join(app, "kit", "package.json"), JSON.stringify({ name: "@creit.tech/stellar-wallets-kit", version: "0.0.0", type: "module", exports: "./index.js" }));
    writeFileSync(join(app, "kit", "index.js"), KIT);
    execFileSync(npm, [
      "install", "--offline", "--no-audit", "--no-fund", "--loglevel", "error",
      tarball, `@stellar/stellar-sdk@${pkg.devDependencies["@stellar/stellar-sdk"]}`, "./kit",
    ], { cwd: app, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  });
  after(() => relay?.stop());

  /** Runs `script` in the project with node, for account n (its plan closes into account n+1). */
  function runScript(name: string, script: string, n: number, done: string) {
    writeFileSync(join(app, name), script);
    const [acct, dest] = [relay.accounts[n], relay.accounts[n + 1]];
    const cosigners = acct.secrets.slice(0, -1).map((s) => Keypair.fromSecret(s).publicKey());
    const secrets = Object.fromEntries(acct.secrets.map((s) => [Keypair.fromSecret(s).publicKey(), s]));
    const env = { account: acct.address, destination: dest.address, master: acct.secrets[acct.secrets.length - 1], cosigners, secrets, memo: `install ${name}`, done };
    return spawnSync(process.execPath, [name], {
      cwd: app, encoding: "utf8", timeout: 60_000, env: { ...process.env, CLOSE_ENV: JSON.stringify(env) },
    });
  }

  it("installs offline: the package from its tarball, the SDK as its peer", () => {
    const installed = JSON.parse(readFileSync(join(app, "node_modules/@closerelay/client/package.json"), "utf8"));
    assert.equal(installed.version, pkg.version);
    assert.deepEqual(installed.peerDependencies, pkg.peerDependencies);
    const deps = JSON.parse(readFileSync(join(app, "package.json"), "utf8")).dependencies;
    assert.ok(deps["@closerelay/client"].startsWith("file:"), JSON.stringify(deps));
  });

  it("docs/javascript.md's snippet publishes, signs with the wallet and watches to the submission", async (t) => {
    const [snippet] = fenced(readFileSync(join(repo, "docs", "javascript.md"), "utf8"), "ts");
    assert.ok(snippet, "docs/javascript.md has no ts block");
    assert.equal(snippet.split(PLACEHOLDER).length, 2, `the snippet names the relay as ${PLACEHOLDER}, once`);
    const script = `import { StellarWalletsKit } from "@creit.tech/stellar-wallets-kit";\n${PRELUDE}` +
      `const show = (w, t) => console.log(\`weight \${w} of \${t}\`);\nconst log = (type) => console.log(\`event \${type}\`);\n` +
      snippet.replace(PLACEHOLDER, JSON.stringify(relay.url)) + EPILOGUE;
    const out = runScript("readme.mjs", script, 0, "event submitted");
    t.diagnostic(out.stdout.trim().replaceAll("\n", " | "));
    assert.equal(out.status, 0, `exit ${out.status} ${out.signal ?? ""}\n${out.stdout}\n${out.stderr}`);
    const lines = out.stdout.trim().split("\n");
    // The stream's states: the master and the wallet, then (or at once) the second co-signer.
    assert.ok(lines.some((l) => /^weight [23] of 3$/.test(l)), out.stdout);
    assert.ok(lines.includes("then weight 3 of 3 ready"), out.stdout);
    assert.ok(lines.includes("event submitted"), out.stdout);
    const m = /^plan ([0-9a-f]{64}) submitted ([0-9a-f]{64})$/.exec(lines[lines.length - 1]);
    assert.ok(m, out.stdout);
    assert.equal((await new Relay(relay.url).status(m[1])).submission?.state, "submitted");
  });

  it("this package's README snippets publish, sign with Stellar Wallets Kit and watch to the submission", async (t) => {
    const blocks = fenced(readFileSync(join(root, "README.md"), "utf8"), "ts");
    assert.equal(blocks.length, 3, "the README's ts blocks: publish, sign, watch");
    assert.equal(blocks[0].split(PLACEHOLDER).length, 2, `the publish snippet names the relay as ${PLACEHOLDER}, once`);
    const script = PRELUDE + blocks.join("\n").replace(PLACEHOLDER, JSON.stringify(relay.url)) + EPILOGUE;
    const out = runScript("client-readme.mjs", script, 2, "landed in ledger");
    t.diagnostic(out.stdout.trim().replaceAll("\n", " | "));
    assert.equal(out.status, 0, `exit ${out.status} ${out.signal ?? ""}\n${out.stdout}\n${out.stderr}`);
    const lines = out.stdout.trim().split("\n");
    assert.equal(lines[0], "weight 2 of 3 "); // signWith's answer, not yet ready
    assert.ok(lines.some((l) => /^weight [23]\/3$/.test(l)), out.stdout); // the watch's states
    assert.ok(lines.some((l) => /^landed in ledger \d+$/.test(l)), out.stdout);
    const m = /^plan ([0-9a-f]{64}) submitted ([0-9a-f]{64})$/.exec(lines[lines.length - 1]);
    assert.ok(m, out.stdout);
    assert.equal((await new Relay(relay.url).status(m[1])).submission?.state, "submitted");
  });

  it("docs/API.md holds no JavaScript example this test does not run", () => {
    const api = readFileSync(join(repo, "docs/API.md"), "utf8");
    for (const lang of ["js", "javascript", "ts", "typescript", "mjs"]) {
      assert.deepEqual(fenced(api, lang), [], `docs/API.md has a \`\`\`${lang} block: run it here, as the READMEs' are`);
    }
  });
});
