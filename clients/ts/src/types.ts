// The wire types of closerelay's API, as GET /api/openapi.json describes
// them (docs/API.md is the prose reference). Answers are returned as the
// relay sends them, `ok` included. test/contract.test.ts fails when these
// drift from the OpenAPI document: every interface here has its field list
// in fields.ts, checked against the type at compile time and against the
// document at test time.

/** A network identifier (docs/API.md section 3). */
export type Network = "mainnet" | "testnet" | "futurenet";

/** POST /api/plan's body (OpenAPI `PublishRequest`). */
export interface PublishRequest {
  network: Network;
  /** The close transaction's envelope, base64 XDR, carrying at least one signature. */
  xdr: string;
  /** Have the relay submit the close once it is ready (docs/API.md 3.7). */
  submit?: boolean;
  /** A five-part, memo-committed mediator flow token; needs `submit: true` (docs/API.md 3.8). */
  flowToken?: string;
}

/** POST /api/plan's answer (OpenAPI `PublishOK`). */
export interface PublishAnswer {
  ok: true;
  /** The plan id: the transaction hash, 64 lowercase hex characters. */
  id: string;
}

/** GET /api/plan/{id}'s answer (OpenAPI `Plan`). */
export interface PlanAnswer {
  ok: true;
  network: Network;
  xdr: string;
}

/** POST /api/plan/{id}/sign's body (OpenAPI `SignRequest`). */
export interface SignRequest {
  xdr: string;
}

/** POST /api/plan/{id}/sign's answer (OpenAPI `SignOK`). */
export interface SignAnswer {
  ok: true;
  network: Network;
  /** The whole merged envelope. */
  xdr: string;
  /** The recovered keys of the envelope's signatures, in envelope order. */
  signers: string[];
  weight: number;
  threshold: number;
  ready: boolean;
  /** The preflight's verdict: true landable, false blocked, null when the relay cannot tell. */
  landable: boolean | null;
}

/** GET /api/plan/{id}/ready's answer (OpenAPI `ReadyOK`): the submit-ready envelope. */
export interface ReadyAnswer {
  ok: true;
  id: string;
  network: Network;
  xdr: string;
  signers: string[];
  weight: number;
  threshold: number;
}

/** A reason a close would not land (OpenAPI `Blocker`). */
export interface Blocker {
  /** The operation's index; -1 for the transaction, -2 for a relay-run forward. */
  op: number;
  code: string;
  reason: string;
}

/** The preflight's states (OpenAPI `Preflight.state`). */
export type PreflightState = "landable" | "blocked" | "uncertain" | "unchecked";

/** The preflight's verdict (OpenAPI `Preflight`). */
export interface Preflight {
  state: PreflightState;
  blockers: Blocker[];
  /** RFC 3339, UTC. */
  checked: string;
  /** On an uncertain or unchecked run only: the relay's bound that stopped the preflight (docs/API.md section 12). */
  reason?: string;
  /** The run's word on the fee bid; null only for a run restored from an older store. */
  fee: Fee | null;
}

/** The close's fee bid against the network's fees (OpenAPI `Fee`): advice, never a blocker. */
export interface Fee {
  /** The close's fee bid per operation, in stroops. */
  bid: number;
  /** The network's p70 inclusion fee per operation, in stroops; null when unknown. */
  network: number | null;
  /** Whether `bid` is below `network` (a fee-bump would help); null when `network` is. */
  low: boolean | null;
}

/** POST /api/plan/{id}/bump's body (docs/API.md): a fee-bump around the plan's submit-ready close. */
export interface BumpRequest {
  /** The fee-bump envelope, base64 XDR. */
  xdr: string;
}

/** POST /api/plan/{id}/bump's answer. */
export interface BumpAnswer {
  ok: true;
  /** The plan id. */
  id: string;
  /** The fee-bump's hash, 64 lowercase hex characters: submission.hash once it is submitted. */
  hash: string;
}

/** The relay's submission of the close (OpenAPI `Submission`). */
export type Submission =
  | { state: "pending" }
  | { state: "submitted"; hash: string; ledger: number }
  | { state: "failed"; code: string }
  | { state: "blocked"; code: string };

/** The relay-run mediator forward (OpenAPI `Forward`). */
export type Forward =
  | { state: "pending" }
  | { state: "forwarded"; hash: string; ledger: number; amount: string }
  | { state: "failed"; code: string; hash?: string };

/** GET /api/plan/{id}/status's answer (OpenAPI `StatusOK`). */
export interface StatusAnswer {
  ok: true;
  id: string;
  network: Network;
  /** The stream's event id of the current envelope: 1 at publish, +1 per change. */
  version: number;
  signers: string[];
  weight: number;
  threshold: number;
  ready: boolean;
  /** The end of the signing window, RFC 3339, UTC. */
  expiry: string;
  submit: boolean;
  submission: Submission | null;
  preflight: Preflight | null;
  forward: Forward | null;
}

/** An unnamed stream event's data: the plan's state (OpenAPI `EventData`). */
export interface PlanState {
  network: Network;
  xdr: string;
  id: string;
  signers: string[];
  weight: number;
  threshold: number;
  ready: boolean;
  landable: boolean | null;
}

/** `event: expired` (OpenAPI `ExpiredEventData`). */
export interface ExpiredEvent {
  id: string;
}

/** `event: submitted` (OpenAPI `SubmittedEventData`). */
export interface SubmittedEvent {
  id: string;
  hash: string;
  ledger: number;
}

/** `event: submit_failed` (OpenAPI `SubmitFailedEventData`). */
export interface SubmitFailedEvent {
  id: string;
  code: string;
  reason: string;
}

/** `event: forwarded` (OpenAPI `ForwardedEventData`). */
export interface ForwardedEvent {
  id: string;
  hash: string;
  ledger: number;
  amount: string;
}

/** `event: forward_failed` (OpenAPI `ForwardFailedEventData`). */
export interface ForwardFailedEvent {
  id: string;
  code: string;
  reason: string;
}

/** `event: preflight` (docs/API.md section 4): a preflight run whose outcome changed. */
export interface PreflightEvent {
  id: string;
  preflight: Preflight;
  landable: boolean | null;
}

/** GET /api/mediator/sign's answer (OpenAPI `MintOK`): no `ok` field. */
export interface MintAnswer {
  flowToken: string;
  mediatorPublicKey: string;
}

/** POST /api/mediator/sign's body (OpenAPI `CosignRequest`). */
export interface CosignRequest {
  envelopeXdr: string;
  flowToken: string;
  network: Network;
}

/** POST /api/mediator/sign's answer (OpenAPI `CosignOK`). */
export interface CosignAnswer {
  ok: true;
  signedXdr: string;
  hash: string;
}

/** Every JSON error body (OpenAPI `Error`). */
export interface ErrorBody {
  ok: false;
  code: string;
  reason: string;
}
