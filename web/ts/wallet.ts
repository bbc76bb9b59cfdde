// "Sign with a wallet" on the plan page (docs/API.md, the plan page):
// Stellar Wallets Kit connects the co-signer's wallet, the page checks that
// its address is a signer of the plan that has not signed yet, shows again
// what is signed, asks the wallet to sign the plan's current envelope on the
// plan's network and posts the answer with @closerelay/client (signWith
// fetches the envelope and checks that it hashes to the plan id first).
//
// plan.ts imports this module only when the co-signer clicks the button, so
// the page's first load carries no wallet code. Built by build.mjs into
// web/assets/wallet/ (an ES module and its chunks).
import { StellarWalletsKit } from "@creit.tech/stellar-wallets-kit/sdk";
import type { ModuleInterface } from "@creit.tech/stellar-wallets-kit/types";
import { FreighterModule } from "@creit.tech/stellar-wallets-kit/modules/freighter";
import { xBullModule } from "@creit.tech/stellar-wallets-kit/modules/xbull";
import { AlbedoModule } from "@creit.tech/stellar-wallets-kit/modules/albedo";
import { LobstrModule } from "@creit.tech/stellar-wallets-kit/modules/lobstr";
import { RabetModule } from "@creit.tech/stellar-wallets-kit/modules/rabet";
import { HanaModule } from "@creit.tech/stellar-wallets-kit/modules/hana";
import { LedgerModule } from "@creit.tech/stellar-wallets-kit/modules/ledger";
import { TrezorModule } from "@creit.tech/stellar-wallets-kit/modules/trezor";
import { Keypair, TransactionBuilder, FeeBumpTransaction } from "@stellar/stellar-sdk";
import { Relay, RelayError } from "@closerelay/client";
import type { SignAnswer } from "@closerelay/client";
import type { WalletPage } from "./walletpage";

// How long the page waits for the wallet to answer a signing request; past
// it the co-signer is told so and may try again.
const WALLET_TIMEOUT_MS = 180_000;

let started: Promise<void> | null = null;

// The kit's modules (docs/API.md lists them): WalletConnect only when the
// relay has a WALLETCONNECT_PROJECT_ID, and then from a chunk of its own.
async function modules(page: WalletPage): Promise<ModuleInterface[]> {
  const list: ModuleInterface[] = [
    new FreighterModule(),
    new xBullModule(),
    new AlbedoModule(),
    new LobstrModule(),
    new RabetModule(),
    new HanaModule(),
    new LedgerModule(),
    new TrezorModule({ appUrl: location.origin, appName: "closerelay", email: "", lazyLoad: true }),
  ];
  if (page.walletConnect !== "") {
    const { WalletConnectModule, WalletConnectTargetChain } = await import("@creit.tech/stellar-wallets-kit/modules/wallet-connect");
    list.push(new WalletConnectModule({
      projectId: page.walletConnect,
      metadata: { name: "closerelay", description: "Sign a close of a Stellar account", url: location.origin, icons: [] },
      allowedChains: [WalletConnectTargetChain.PUBLIC, WalletConnectTargetChain.TESTNET],
    }));
  }
  return list;
}

function start(page: WalletPage): Promise<void> {
  if (started === null) {
    started = modules(page).then((list) => { StellarWalletsKit.init({ modules: list }); });
    started.catch(() => { started = null; });
  }
  return started;
}

interface SignerRow { key: string; weight: number; signed: boolean }

function signers(): SignerRow[] {
  return Array.from(document.querySelectorAll<HTMLElement>("#signers li[data-key]")).map((li) => ({
    key: li.dataset.key || "",
    weight: parseInt(li.dataset.weight || "0", 10) || 0,
    signed: li.classList.contains("signed"),
  }));
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function say(page: WalletPage, kind: "" | "ok" | "error", title: string, text: string, code = ""): void {
  const out = document.getElementById("wallet-say");
  if (!out) return;
  out.className = "notice" + (kind === "" ? "" : " notice-" + kind);
  out.setAttribute("role", kind === "error" ? "alert" : "status");
  out.replaceChildren();
  if (title !== "") out.appendChild(el("h3", title));
  const p = el("p", text);
  if (code !== "") { p.append(" "); p.appendChild(el("code", code, "pf-code")); }
  out.appendChild(p);
  out.hidden = false;
}

function panel(page: WalletPage): HTMLElement {
  let p = page.box.querySelector<HTMLElement>("#wallet-panel");
  if (!p) { p = el("div"); p.id = "wallet-panel"; page.box.appendChild(p); }
  p.replaceChildren();
  p.hidden = true;
  return p;
}

function button(page: WalletPage): HTMLButtonElement | null {
  return page.box.querySelector<HTMLButtonElement>("#wallet-sign");
}

// What the page says the co-signer signs, read from the page itself: the
// decision's facts and the ledger check's verdict as now shown.
function whatIsSigned(): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  const dts = document.querySelectorAll("#decision .decision-facts dt");
  dts.forEach((dt) => {
    const dd = dt.nextElementSibling;
    if (dd) out.push({ label: dt.textContent || "", text: (dd.textContent || "").replace(/\s+/g, " ").trim() });
  });
  const net = document.querySelector("#plan h1 .net");
  if (net) out.push({ label: "Network", text: net.textContent || "" });
  const verdict = document.querySelector("#preflight:not([hidden]) .pf-say:not([hidden]) h2");
  out.push({ label: "Ledger check", text: verdict ? verdict.textContent || "" : "Not checked: read every operation below before you sign." });
  return out;
}

// The wallet's own failures, told apart from the relay's (RelayError
// SIGNER carries them as its cause).
class WalletFailure extends Error {
  constructor(readonly kind: "refused" | "timeout" | "other-key" | "other-tx", message: string) { super(message); }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new WalletFailure("timeout", "the wallet did not answer")), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

function kitMessage(e: unknown): string {
  if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
  return String(e);
}

// The signed envelope must be the plan's transaction and carry a valid
// signature of address over it: a wallet that signed with another key, or
// something else, is told so instead of posting a signature that adds nothing.
function checkSigned(id: string, signed: string, networkPassphrase: string, address: string): void {
  let tx;
  try {
    tx = TransactionBuilder.fromXDR(signed, networkPassphrase);
  } catch {
    throw new WalletFailure("other-tx", "the wallet answered something that is not a transaction envelope");
  }
  if (tx instanceof FeeBumpTransaction || hex(tx.hash()) !== id) {
    throw new WalletFailure("other-tx", "the wallet signed another transaction than this plan's");
  }
  const kp = Keypair.fromPublicKey(address);
  const hint = kp.signatureHint();
  const hash = tx.hash();
  const ok = tx.signatures.some((s) => sameBytes(s.hint.toBytes(), hint) && kp.verify(hash, s.signature));
  if (!ok) throw new WalletFailure("other-key", "the envelope the wallet returned carries no signature of " + address);
}

// Bytes compared and written out without Buffer, which @stellar/stellar-sdk
// 17 no longer returns.
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function sayFailure(page: WalletPage, e: unknown, wallet: string, address: string): void {
  const cause = e instanceof RelayError ? (e as Error & { cause?: unknown }).cause : e;
  if (cause instanceof WalletFailure) {
    switch (cause.kind) {
      case "timeout":
        say(page, "error", "No answer from the wallet", wallet + " did not answer within " + WALLET_TIMEOUT_MS / 60000 + " minutes. Nothing was signed; try again when the wallet is open.");
        return;
      case "refused":
        say(page, "error", "The wallet did not sign", wallet + " refused or failed to sign: " + cause.message + ". Nothing was sent; you can sign again.");
        return;
      case "other-key":
        say(page, "error", "Signed with another key", wallet + " signed with a key other than " + address + ", so the signature was not sent. Choose that account in the wallet, then sign again.");
        return;
      case "other-tx":
        say(page, "error", "Not this plan's transaction", "The wallet's answer is not this plan's transaction signed (" + cause.message + "), so nothing was sent.");
        return;
    }
  }
  if (e instanceof RelayError && e.code === "SIGNER") {
    say(page, "error", "The wallet did not sign", wallet + " refused or failed to sign: " + kitMessage(cause) + ". Nothing was sent; you can sign again.");
    return;
  }
  if (e instanceof RelayError && e.code === "NETWORK") {
    say(page, "error", "Not sent", "The relay could not be reached: check the connection, then sign again.");
    return;
  }
  if (e instanceof RelayError) {
    say(page, "error", "Signature refused", "The relay refused the signature: " + e.reason + ".", e.code);
    return;
  }
  say(page, "error", "Not signed", kitMessage(e) + ".");
}

function weightWords(a: SignAnswer): string {
  return a.threshold > 0 ? "weight " + a.weight + " of " + a.threshold + (a.ready ? ": enough to submit" : ", " + (a.threshold - a.weight) + " more needed") : a.signers.length + " signature(s) on the plan";
}

async function sign(page: WalletPage, address: string, wallet: string, row: SignerRow, go: HTMLButtonElement): Promise<void> {
  go.disabled = true;
  say(page, "", "", "Confirm in " + wallet + ": it asks you to sign this plan's transaction.");
  const relay = new Relay(location.origin);
  try {
    const answer = await relay.signWith(page.id, async (xdr, { networkPassphrase }) => {
      let res: { signedTxXdr: string; signerAddress?: string };
      try {
        res = await withTimeout(StellarWalletsKit.signTransaction(xdr, { networkPassphrase, address }), WALLET_TIMEOUT_MS);
      } catch (e) {
        if (e instanceof WalletFailure) throw e;
        throw new WalletFailure("refused", kitMessage(e));
      }
      if (res.signerAddress && res.signerAddress !== address) {
        throw new WalletFailure("other-key", "the wallet signed as " + res.signerAddress);
      }
      checkSigned(page.id, res.signedTxXdr, networkPassphrase, address);
      return res;
    });
    page.apply(answer);
    panel(page);
    if (answer.signers.includes(address)) {
      say(page, "ok", "Signature added", "The relay admitted the signature of " + address + " (weight " + row.weight + "): " + weightWords(answer) + ".");
    } else {
      say(page, "error", "Nothing changed", "The relay's answer does not count " + address + " (" + weightWords(answer) + ").");
    }
  } catch (e) {
    if (e instanceof WalletFailure) { sayFailure(page, new RelayError(0, "SIGNER", e.message, { cause: e }), wallet, address); } else { sayFailure(page, e, wallet, address); }
    go.disabled = false;
  }
}

// connect runs one attempt: the kit's wallet list, the address check, what
// is signed, then the signature on the co-signer's click.
export async function connect(page: WalletPage): Promise<void> {
  const btn = button(page);
  const box = panel(page);
  if (!page.isOpen()) return;
  try {
    await start(page);
  } catch (e) {
    say(page, "error", "No wallets", "The wallets could not be started: " + kitMessage(e) + ".");
    return;
  }
  say(page, "", "", "Choose your wallet in the list.");
  let address: string;
  try {
    ({ address } = await StellarWalletsKit.authModal());
  } catch (e) {
    const closed = e && typeof e === "object" && (e as { code?: unknown }).code === -1;
    say(page, closed ? "" : "error", closed ? "" : "The wallet did not connect", closed ? "No wallet connected." : kitMessage(e) + ".");
    return;
  }
  const wallet = (() => { try { return StellarWalletsKit.selectedModule.productName; } catch { return "The wallet"; } })();
  const row = signers().find((s) => s.key === address);
  if (btn) btn.textContent = "Sign with another wallet";
  if (!row) {
    say(page, "error", "Not a signer", wallet + " is connected as " + address + ", which is not one of this account's signers listed under Signatures: its signature would not count. Connect the wallet that holds one of those keys.");
    return;
  }
  if (row.signed) {
    say(page, "ok", "Already signed", address + " has already signed this close: nothing more is needed from this key.");
    return;
  }
  if (!page.isOpen()) {
    say(page, "", "", "Signing is closed now; see Sign below for why.");
    return;
  }
  const out = document.getElementById("wallet-say");
  if (out) out.hidden = true;
  box.appendChild(el("h3", "Check, then sign in " + wallet));
  box.appendChild(el("p", "Signing as " + address + " (weight " + row.weight + "). You sign this:"));
  const dl = el("dl", undefined, "facts");
  for (const f of whatIsSigned()) { dl.appendChild(el("dt", f.label)); dl.appendChild(el("dd", f.text)); }
  box.appendChild(dl);
  const go = el("button", "Sign in " + wallet);
  go.type = "button";
  go.id = "wallet-go";
  const cancel = el("button", "Cancel", "secondary");
  cancel.type = "button";
  cancel.addEventListener("click", () => { panel(page); say(page, "", "", "Not signed."); });
  go.addEventListener("click", () => { void sign(page, address, wallet, row, go); });
  const actions = el("p", undefined, "wallet-actions");
  actions.append(go, " ", cancel);
  box.appendChild(actions);
  box.hidden = false;
  go.focus();
}
