// Builds the plan page's scripts into web/assets (committed and embedded by
// package web, so `go build` needs no JavaScript tools):
//   plan.ts   -> assets/plan.js, the classic script the page loads (no
//                wallet code);
//   wallet.ts -> assets/wallet/wallet.js and its chunks, an ES module that
//                plan.js imports only when the co-signer asks to sign with a
//                wallet (Stellar Wallets Kit; WalletConnect's code is a chunk
//                of its own, loaded only when the relay has a project id).
// `node build.mjs --outdir DIR` writes into DIR instead: web's
// TestAssetsAreTheBuild compares such a build with the committed files.
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { rmSync } from "node:fs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf("--outdir");
const outdir = at >= 0 ? path.resolve(args[at + 1]) : path.join(here, "..", "assets");

// One @stellar/stellar-sdk, this package's, for the kit and for the client
// (which is built from its sources in clients/ts, beside its own
// node_modules when someone ran npm ci there).
const oneSDK = {
  name: "one-stellar-sdk",
  setup(build) {
    build.onResolve({ filter: /^@stellar\/stellar-sdk$/ }, (a) =>
      a.resolveDir === here ? undefined : build.resolve(a.path, { kind: a.kind, resolveDir: here }));
  },
};

const common = {
  absWorkingDir: here,
  bundle: true,
  minify: true,
  legalComments: "none",
  target: ["es2020"],
  charset: "utf8",
  logLevel: "warning",
};

await esbuild.build({
  ...common,
  entryPoints: { plan: "plan.ts" },
  outdir,
  format: "iife",
});

// The wallet's chunks are named by their content: clear the old ones.
rmSync(path.join(outdir, "wallet"), { recursive: true, force: true });
await esbuild.build({
  ...common,
  entryPoints: { wallet: "wallet.ts" },
  outdir: path.join(outdir, "wallet"),
  format: "esm",
  splitting: true,
  chunkNames: "wallet-[hash]",
  platform: "browser",
  // The TypeScript client of CONTRACT section 19, from its sources.
  alias: { "@closerelay/client": "../../clients/ts/src/index.ts" },
  plugins: [oneSDK],
  inject: ["./shims.ts"],
  define: { global: "globalThis", "process.env.NODE_ENV": '"production"' },
});
