// What `npm pack` ships, and the dependency rules: the SDK as a peer, no
// other runtime dependency, development dependencies pinned exactly.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url)); // clients/ts
const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8"));

describe("the package", () => {
  it("packs dist and the README, nothing else", () => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
    const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
    assert.deepEqual(files.filter((f) => !f.startsWith("dist/")).sort(), ["README.md", "package.json"]);
    for (const f of ["dist/index.js", "dist/index.d.ts", "dist/relay.js", "dist/watch.js"]) assert.ok(files.includes(f), f);
    assert.ok(!files.some((f) => f.includes("test")), "tests in the package");
  });

  it("is ESM with declarations, the SDK as its only (peer) dependency, dev dependencies pinned", () => {
    assert.equal(pkg.name, "@closerelay/client");
    assert.equal(pkg.type, "module");
    assert.equal(pkg.exports["."].types, "./dist/index.d.ts");
    assert.equal(pkg.dependencies, undefined);
    assert.deepEqual(pkg.peerDependencies, { "@stellar/stellar-sdk": ">=14" });
    for (const [name, v] of Object.entries(pkg.devDependencies as Record<string, string>)) {
      assert.match(v, /^\d+\.\d+\.\d+$/, `${name} is not pinned exactly`);
    }
    const lock = JSON.parse(readFileSync(`${root}package-lock.json`, "utf8"));
    assert.deepEqual(lock.packages[""].devDependencies, pkg.devDependencies);
  });
});
