// npm test: builds the Go relay's lab command (closerelaylab) into a temporary
// directory, runs every test file with Node's test runner against it, and
// removes the directory. The tests start `closerelaylab load local` on
// loopback (test/support/relay.ts) and stop it when they end.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url)); // build-test/test/support
const testDir = resolve(here, "..");
const repo = resolve(here, "../../../../..");
const tmp = mkdtempSync(join(tmpdir(), "closerelay-ts-"));
let code = 1;
try {
  const bin = join(tmp, "closerelaylab");
  const t0 = Date.now();
  const go = spawnSync("go", ["build", "-o", bin, "./cmd/closerelaylab"], { cwd: repo, stdio: "inherit" });
  if (go.error || go.status !== 0) {
    console.error(`test: go build ./cmd/closerelaylab failed${go.error ? `: ${go.error.message}` : ""}`);
  } else {
    console.log(`test: built closerelaylab in ${Date.now() - t0} ms`);
    const files = readdirSync(testDir).filter((f) => f.endsWith(".test.js")).sort().map((f) => join(testDir, f));
    const only = process.argv.slice(2);
    const run = spawnSync(process.execPath, ["--test", ...(only.length ? only : files)], {
      stdio: "inherit",
      env: { ...process.env, CLOSERELAYLAB: bin, CLOSERELAY_TS_TMP: tmp },
    });
    code = run.status ?? 1;
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
