import { FeeBumpTransaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { RelayError } from "./errors.js";
import { NETWORK_PASSPHRASES } from "./fields.js";
import type {
  BumpAnswer, BumpRequest, CosignAnswer, CosignRequest, MintAnswer, Network, PlanAnswer, PublishAnswer, PublishRequest,
  ReadyAnswer, SignAnswer, StatusAnswer,
} from "./types.js";
import { watchPlan, type WatchOptions } from "./watch.js";

/** The fetch the client calls: the global one, or the caller's. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** `new Relay`'s options. */
export interface RelayOptions {
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /**
   * Accepted for the contract's shape and unused: watch reads the stream
   * through fetch, since it must see the stream's 503 and 429 and send
   * Last-Event-ID.
   */
  EventSource?: unknown;
}

/**
 * A signer: Stellar Wallets Kit's `signTransaction` fits. It is given the
 * plan's envelope and its network passphrase and answers the signed
 * envelope, as a string or as `{signedTxXdr}`.
 */
export type Signer = (
  xdr: string,
  opts: { networkPassphrase: string },
) => Promise<string | { signedTxXdr: string }> | string | { signedTxXdr: string };

/** The mediator routes (docs/API.md section 6). */
export interface Mediator {
  /** Mint a flow committed to `destination` (and to `memo`: `text:…`, `id:…`, `hash:…`, `return:…`). */
  mint(destination: string, opts?: { memo?: string }): Promise<MintAnswer>;
  /** Have the mediator co-sign a forward of the flow. */
  cosign(req: CosignRequest): Promise<CosignAnswer>;
}

const MAX_REASON = 512;

/** A client of one closerelay instance. */
export class Relay {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly mediator: Mediator;
  /** @internal */
  readonly fetchFn: FetchLike;

  constructor(baseUrl: string, options: RelayOptions = {}) {
    let u: URL;
    try {
      u = new URL(baseUrl);
    } catch {
      throw new TypeError(`closerelay: ${JSON.stringify(baseUrl)} is not an http(s) base URL`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new TypeError(`closerelay: ${JSON.stringify(baseUrl)} is not an http(s) base URL`);
    }
    this.baseUrl = (u.origin + u.pathname).replace(/\/+$/, "");
    const f = options.fetch;
    // The global fetch must be called unbound from its object in browsers.
    this.fetchFn = f ?? ((input, init) => globalThis.fetch(input, init));
    this.mediator = {
      mint: (destination, opts = {}) => {
        const q = new URLSearchParams({ destination });
        if (opts.memo !== undefined) q.set("memo", opts.memo);
        return this.request<MintAnswer>("GET", `/api/mediator/sign?${q}`, undefined, (a) =>
          typeof a.flowToken === "string" && typeof a.mediatorPublicKey === "string");
      },
      cosign: ({ envelopeXdr, flowToken, network }) =>
        this.request<CosignAnswer>("POST", "/api/mediator/sign", { envelopeXdr, flowToken, network }, (a) =>
          a.ok === true && typeof a.signedXdr === "string"),
    };
  }

  /** Publish a partly signed close (or merge into its open plan): POST /api/plan. */
  publish(req: PublishRequest): Promise<PublishAnswer> {
    const body: Record<string, unknown> = { network: req.network, xdr: req.xdr };
    if (req.submit !== undefined) body.submit = req.submit;
    if (req.flowToken !== undefined) body.flowToken = req.flowToken;
    return this.request<PublishAnswer>("POST", "/api/plan", body, (a) => a.ok === true && typeof a.id === "string");
  }

  /** The plan's current envelope: GET /api/plan/{id}. */
  plan(id: string): Promise<PlanAnswer> {
    return this.request<PlanAnswer>("GET", planPath(id), undefined, (a) => a.ok === true && typeof a.xdr === "string");
  }

  /** The plan's progress, expiry, submission, forward and preflight: GET /api/plan/{id}/status. */
  status(id: string): Promise<StatusAnswer> {
    return this.request<StatusAnswer>("GET", `${planPath(id)}/status`, undefined, (a) =>
      a.ok === true && typeof a.version === "number");
  }

  /** The submit-ready envelope: GET /api/plan/{id}/ready (409 NOT_READY while the weight is short). */
  ready(id: string): Promise<ReadyAnswer> {
    return this.request<ReadyAnswer>("GET", `${planPath(id)}/ready`, undefined, (a) =>
      a.ok === true && typeof a.xdr === "string");
  }

  /** Merge an envelope carrying the caller's signature: POST /api/plan/{id}/sign. */
  sign(id: string, signedXdr: string): Promise<SignAnswer> {
    return this.request<SignAnswer>("POST", `${planPath(id)}/sign`, { xdr: signedXdr }, (a) =>
      a.ok === true && typeof a.xdr === "string");
  }

  /**
   * Post a fee-bump around the plan's submit-ready close, for the relay to
   * submit in place of the plan's own envelope: POST /api/plan/{id}/bump.
   * An answer for another plan, or without a fee-bump hash, is UNEXPECTED.
   */
  bump(id: string, req: BumpRequest): Promise<BumpAnswer> {
    return this.request<BumpAnswer>("POST", `${planPath(id)}/bump`, { xdr: req.xdr }, (a) =>
      a.ok === true && typeof a.id === "string" && a.id.toLowerCase() === id.toLowerCase() &&
      typeof a.hash === "string" && /^[0-9a-f]{64}$/.test(a.hash));
  }

  /**
   * Fetch the plan, check that its envelope is a classic transaction whose
   * hash on the plan's network is `id` (else RelayError MISMATCH, before
   * the signer is called), have `signer` sign it, and post the result.
   */
  async signWith(id: string, signer: Signer): Promise<SignAnswer> {
    const plan = await this.plan(id);
    const networkPassphrase = NETWORK_PASSPHRASES[plan.network as Network];
    if (networkPassphrase === undefined) {
      throw new RelayError(0, "MISMATCH", `the plan names network ${JSON.stringify(plan.network)}, which the client does not know`);
    }
    let hash: string;
    try {
      const tx = TransactionBuilder.fromXDR(plan.xdr, networkPassphrase);
      if (tx instanceof FeeBumpTransaction) {
        throw new RelayError(0, "MISMATCH", "the plan's envelope is a fee-bump, not a classic transaction");
      }
      hash = hex(tx.hash());
    } catch (e) {
      if (e instanceof RelayError) throw e;
      throw new RelayError(0, "MISMATCH", "the plan's envelope does not decode as a transaction", { cause: e });
    }
    if (hash !== id.toLowerCase()) {
      throw new RelayError(0, "MISMATCH", `the plan's transaction hashes to ${hash} on ${plan.network}, not to ${id}`);
    }
    let answer: unknown;
    try {
      answer = await signer(plan.xdr, { networkPassphrase });
    } catch (e) {
      throw new RelayError(0, "SIGNER", `the signer failed: ${messageOf(e)}`, { cause: e });
    }
    let signed: string | undefined;
    if (typeof answer === "string") signed = answer;
    else if (answer !== null && typeof answer === "object" && typeof (answer as { signedTxXdr?: unknown }).signedTxXdr === "string") {
      signed = (answer as { signedTxXdr: string }).signedTxXdr;
    }
    if (signed === undefined || signed === "") {
      throw new RelayError(0, "SIGNER", "the signer answered neither a signed envelope nor {signedTxXdr}");
    }
    return this.sign(id, signed);
  }

  /**
   * Follow the plan: `onState` gets each state, `onEvent` the stream's
   * named events and the client's `polling`, `live` and `not_found`.
   * Returns a function that stops the watch (so does `signal`).
   */
  watch(id: string, options: WatchOptions = {}): () => void {
    return watchPlan(this, id, options);
  }

  /** @internal One JSON request; a 2xx answer that `shape` refuses is UNEXPECTED. */
  async request<T>(method: string, path: string, body: unknown, shape: (a: Record<string, unknown>) => boolean, signal?: AbortSignal): Promise<T> {
    const res = await this.send(path, {
      method,
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw new RelayError(0, "NETWORK", `the relay's answer was cut: ${messageOf(e)}`, { cause: e });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) throw errorOf(res, json, text);
    if (json === null || typeof json !== "object" || Array.isArray(json) || !shape(json as Record<string, unknown>)) {
      throw new RelayError(res.status, "UNEXPECTED", `${method} ${path.split("?")[0]} answered ${res.status} without the contract's JSON`);
    }
    return json as T;
  }

  /** @internal fetch, with a failure to reach the relay as NETWORK. */
  async send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetchFn(this.baseUrl + path, init);
    } catch (e) {
      if (init.signal?.aborted) throw e;
      throw new RelayError(0, "NETWORK", `no answer from the relay at ${this.baseUrl}: ${messageOf(e)}`, { cause: e });
    }
  }
}

/** The RelayError of a non-2xx answer: its JSON error body, or a short plain-text reason. */
export function errorOf(res: Response, json: unknown, text: string): RelayError {
  const retryAfter = retryAfterOf(res);
  const opts = retryAfter === undefined ? undefined : { retryAfter };
  if (json !== null && typeof json === "object" && typeof (json as { code?: unknown }).code === "string") {
    const b = json as { code: string; reason?: unknown };
    return new RelayError(res.status, b.code, typeof b.reason === "string" ? b.reason : "", opts);
  }
  let reason = text.trim();
  if (reason.length > MAX_REASON) reason = `${reason.slice(0, MAX_REASON)}…`;
  return new RelayError(res.status, "UNEXPECTED", reason || `status ${res.status}`, opts);
}

/** Retry-After as whole seconds, when it is a plain number. */
export function retryAfterOf(res: Response): number | undefined {
  const v = res.headers.get("retry-after");
  if (v === null || !/^\s*[0-9]+\s*$/.test(v)) return undefined;
  return Number(v);
}

function planPath(id: string): string {
  return `/api/plan/${encodeURIComponent(id)}`;
}

export function messageOf(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

/**
 * The bytes in lowercase hex. `tx.hash()` is a Buffer up to
 * @stellar/stellar-sdk 14 and a plain Uint8Array from 17, whose
 * `toString("hex")` is a comma-separated list of numbers.
 */
function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}
