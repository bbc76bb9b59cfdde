// The names of the wire, as values: the OpenAPI schema each type follows,
// its fields, and the error codes. The compile-time checks at the end tie
// each list to its type in types.ts; test/contract.test.ts ties each list
// to GET /api/openapi.json. A field added on one side only fails one of them.

import type {
  Blocker, CosignAnswer, Fee, CosignRequest, ErrorBody, ExpiredEvent, Forward, ForwardFailedEvent,
  ForwardedEvent, MintAnswer, Network, PlanAnswer, PlanState, Preflight, PreflightState,
  PublishAnswer, PublishRequest, ReadyAnswer, SignAnswer, SignRequest, StatusAnswer,
  SubmitFailedEvent, Submission, SubmittedEvent,
} from "./types.js";

/** The fields of each OpenAPI object schema the client reads or writes, by schema name. */
export const SCHEMA_FIELDS = {
  PublishRequest: ["network", "xdr", "submit", "flowToken"],
  PublishOK: ["ok", "id"],
  Plan: ["ok", "network", "xdr"],
  SignRequest: ["xdr"],
  SignOK: ["ok", "network", "xdr", "signers", "weight", "threshold", "ready", "landable"],
  ReadyOK: ["ok", "id", "network", "xdr", "signers", "weight", "threshold"],
  StatusOK: ["ok", "id", "network", "version", "signers", "weight", "threshold", "ready", "expiry", "submit", "submission", "preflight", "forward"],
  Preflight: ["state", "blockers", "checked", "fee", "reason"],
  Fee: ["bid", "network", "low"],
  Blocker: ["op", "code", "reason"],
  EventData: ["network", "xdr", "id", "signers", "weight", "threshold", "ready", "landable"],
  ExpiredEventData: ["id"],
  SubmittedEventData: ["id", "hash", "ledger"],
  SubmitFailedEventData: ["id", "code", "reason"],
  ForwardedEventData: ["id", "hash", "ledger", "amount"],
  ForwardFailedEventData: ["id", "code", "reason"],
  MintOK: ["flowToken", "mediatorPublicKey"],
  CosignRequest: ["envelopeXdr", "flowToken", "network"],
  CosignOK: ["ok", "signedXdr", "hash"],
  Error: ["ok", "code", "reason"],
} as const;

/** The fields of each variant of OpenAPI `Submission`, by `state`. */
export const SUBMISSION_FIELDS = {
  pending: ["state"],
  submitted: ["state", "hash", "ledger"],
  failed: ["state", "code"],
  blocked: ["state", "code"],
} as const;

/** The fields of each variant of OpenAPI `Forward`, by `state`. */
export const FORWARD_FIELDS = {
  pending: ["state"],
  forwarded: ["state", "hash", "ledger", "amount"],
  failed: ["state", "code", "hash"],
} as const;

/** The network identifiers (OpenAPI `Network`). */
export const NETWORKS = ["mainnet", "testnet", "futurenet"] as const;

/** The network passphrase of each identifier (docs/API.md section 3). */
export const NETWORK_PASSPHRASES: Readonly<Record<Network, string>> = {
  mainnet: "Public Global Stellar Network ; September 2015",
  testnet: "Test SDF Network ; September 2015",
  futurenet: "Test SDF Future Network ; October 2022",
};

/** The preflight's states (OpenAPI `Preflight.state`). */
export const PREFLIGHT_STATES = ["landable", "blocked", "uncertain", "unchecked"] as const;

/** Every code the relay answers (OpenAPI `ErrorCode`, docs/API.md section 2). */
export const ERROR_CODES = [
  "BAD_XDR", "BAD_NETWORK", "NOT_A_CLOSE", "EXPIRED", "REJECTED", "CAPACITY",
  "ACCOUNT_UNREACHABLE", "UNSIGNED", "SUBMIT_UNSUPPORTED", "BAD_FLOW", "NOT_FOUND",
  "NOT_READY", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "BAD_REQUEST", "METHOD_NOT_ALLOWED",
  "INTERNAL", "UNAVAILABLE", "TOO_MANY_SUBSCRIBERS", "REQUEST_TIMEOUT",
  "MEDIATOR_NOT_CONFIGURED", "INVALID_DESTINATION", "INVALID_FLOW_TOKEN", "INVALID_MEMO",
  "MALFORMED_XDR", "FEE_BUMP_NOT_ALLOWED", "FORWARD_TX_SOURCE_NOT_MEDIATOR",
  "WRONG_OPERATION_COUNT", "FORWARD_OP0_NOT_PAYMENT", "FORWARD_OP0_ASSET_NOT_NATIVE",
  "FORWARD_OP0_SOURCE_NOT_MEDIATOR", "FORWARD_OP1_NOT_ACCOUNT_MERGE",
  "FORWARD_OP1_SOURCE_NOT_MEDIATOR", "FORWARD_DESTINATION_MISMATCH",
  "FORWARD_DESTINATION_NOT_COMMITTED", "FORWARD_MEMO_NOT_COMMITTED", "MISSING_TIME_BOUNDS",
  "TIME_BOUNDS_EXCESSIVE",
] as const;

/** A code the relay answers. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The client's own codes, always with status 0 but UNEXPECTED:
 * NETWORK (no relay was reached), MISMATCH (signWith: the plan's envelope
 * does not hash to its id on its network), SIGNER (signWith: the signer
 * threw or answered neither a string nor {signedTxXdr}), UNEXPECTED (the
 * relay, or something in front of it, answered outside the contract: a
 * body that is not the route's JSON; status is the HTTP status).
 */
export const CLIENT_CODES = ["NETWORK", "MISMATCH", "SIGNER", "UNEXPECTED"] as const;

/** A client's own code. */
export type ClientCode = (typeof CLIENT_CODES)[number];

/**
 * Each method's OpenAPI operation, the schema of its 200 answer, and the
 * codes it can meet in a JSON error (every status of that operation).
 * watch reads the plain-text stream (getPlanEvents) and, while polling,
 * getPlanStatus.
 */
export const METHODS = {
  publish: {
    operationId: "publishPlan",
    answer: "PublishOK",
    codes: ["BAD_XDR", "BAD_REQUEST", "BAD_NETWORK", "NOT_A_CLOSE", "EXPIRED", "SUBMIT_UNSUPPORTED", "BAD_FLOW", "REJECTED", "CAPACITY", "ACCOUNT_UNREACHABLE", "UNSIGNED", "UNAVAILABLE", "NOT_FOUND", "REQUEST_TIMEOUT", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "MEDIATOR_NOT_CONFIGURED", "INTERNAL"],
  },
  plan: { operationId: "getPlan", answer: "Plan", codes: ["NOT_FOUND", "RATE_LIMITED", "INTERNAL", "UNAVAILABLE"] },
  status: { operationId: "getPlanStatus", answer: "StatusOK", codes: ["NOT_FOUND", "RATE_LIMITED", "INTERNAL", "UNAVAILABLE"] },
  ready: { operationId: "getPlanReady", answer: "ReadyOK", codes: ["NOT_FOUND", "NOT_READY", "RATE_LIMITED", "INTERNAL", "UNAVAILABLE"] },
  sign: {
    operationId: "signPlan",
    answer: "SignOK",
    codes: ["BAD_XDR", "REJECTED", "NOT_FOUND", "REQUEST_TIMEOUT", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "INTERNAL", "UNAVAILABLE"],
  },
  mint: { operationId: "mintFlow", answer: "MintOK", codes: ["INVALID_DESTINATION", "INVALID_MEMO", "MEDIATOR_NOT_CONFIGURED", "INTERNAL"] },
  cosign: {
    operationId: "cosignForward",
    answer: "CosignOK",
    codes: [
      "BAD_REQUEST", "BAD_NETWORK", "INVALID_FLOW_TOKEN", "MALFORMED_XDR", "FEE_BUMP_NOT_ALLOWED",
      "FORWARD_TX_SOURCE_NOT_MEDIATOR", "WRONG_OPERATION_COUNT", "FORWARD_OP0_NOT_PAYMENT",
      "FORWARD_OP0_ASSET_NOT_NATIVE", "FORWARD_OP0_SOURCE_NOT_MEDIATOR", "FORWARD_OP1_NOT_ACCOUNT_MERGE",
      "FORWARD_OP1_SOURCE_NOT_MEDIATOR", "FORWARD_DESTINATION_MISMATCH", "FORWARD_DESTINATION_NOT_COMMITTED",
      "FORWARD_MEMO_NOT_COMMITTED", "MISSING_TIME_BOUNDS", "TIME_BOUNDS_EXCESSIVE", "REQUEST_TIMEOUT",
      "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "MEDIATOR_NOT_CONFIGURED", "INTERNAL",
    ],
  },
} as const satisfies Record<string, { operationId: string; answer: keyof typeof SCHEMA_FIELDS; codes: readonly ErrorCode[] }>;

/** The fields each schema leaves optional (not `required`); every other field is required. */
export const OPTIONAL_FIELDS = {
  PublishRequest: ["submit", "flowToken"],
  Preflight: ["reason"],
} as const satisfies { [K in keyof typeof SCHEMA_FIELDS]?: readonly (typeof SCHEMA_FIELDS)[K][number][] };

/** The fields that may be `null`; no other field may. */
export const NULLABLE_FIELDS = {
  SignOK: ["landable"],
  EventData: ["landable"],
  StatusOK: ["submission", "preflight", "forward"],
  Preflight: ["fee"],
  Fee: ["network", "low"],
} as const satisfies { [K in keyof typeof SCHEMA_FIELDS]?: readonly (typeof SCHEMA_FIELDS)[K][number][] };

/** The fields each variant of Submission and Forward leaves optional. */
export const OPTIONAL_VARIANT_FIELDS = {
  Submission: {},
  Forward: { failed: ["hash"] },
} as const;

// Compile-time checks: each list names exactly its type's fields, its
// optional ones and its nullable ones. A failure names the schema in `Bad`.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Check<T extends true> = T;
type F = typeof SCHEMA_FIELDS;
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];
type ListOf<M, K> = K extends keyof M ? (M[K] extends readonly string[] ? M[K][number] : never) : never;
type Variant<U, S> = Extract<U, { state: S }>;

/** The type of each schema in SCHEMA_FIELDS. */
type SchemaTypes = {
  PublishRequest: PublishRequest;
  PublishOK: PublishAnswer;
  Plan: PlanAnswer;
  SignRequest: SignRequest;
  SignOK: SignAnswer;
  ReadyOK: ReadyAnswer;
  StatusOK: StatusAnswer;
  Preflight: Preflight;
  Fee: Fee;
  Blocker: Blocker;
  EventData: PlanState;
  ExpiredEventData: ExpiredEvent;
  SubmittedEventData: SubmittedEvent;
  SubmitFailedEventData: SubmitFailedEvent;
  ForwardedEventData: ForwardedEvent;
  ForwardFailedEventData: ForwardFailedEvent;
  MintOK: MintAnswer;
  CosignRequest: CosignRequest;
  CosignOK: CosignAnswer;
  Error: ErrorBody;
};
type SchemaOK = {
  [K in keyof SchemaTypes]: [
    Equal<keyof SchemaTypes[K], F[K][number]>,
    Equal<OptionalKeys<SchemaTypes[K]>, ListOf<typeof OPTIONAL_FIELDS, K>>,
    Equal<NullableKeys<SchemaTypes[K]>, ListOf<typeof NULLABLE_FIELDS, K>>,
  ];
};
type Bad = { [K in keyof SchemaOK]: false extends SchemaOK[K][number] ? K : never }[keyof SchemaOK];
type VariantOK<U, M, O> = {
  [S in keyof M]: [Equal<keyof Variant<U, S>, ListOf<M, S>>, Equal<OptionalKeys<Variant<U, S>>, ListOf<O, S>>];
};
type BadVariant<U, M, O> = { [S in keyof VariantOK<U, M, O>]: false extends VariantOK<U, M, O>[S][number] ? S : never }[keyof M];
type SV = typeof OPTIONAL_VARIANT_FIELDS;

/** @internal Only here for the compiler: every member must be `true`. */
export type FieldChecks = [
  Check<Equal<keyof SchemaTypes, keyof F>>,
  Check<Equal<Bad, never>>,
  Check<Equal<BadVariant<Submission, typeof SUBMISSION_FIELDS, SV["Submission"]>, never>>,
  Check<Equal<keyof typeof SUBMISSION_FIELDS, Submission["state"]>>,
  Check<Equal<BadVariant<Forward, typeof FORWARD_FIELDS, SV["Forward"]>, never>>,
  Check<Equal<keyof typeof FORWARD_FIELDS, Forward["state"]>>,
  Check<Equal<(typeof NETWORKS)[number], Network>>,
  Check<Equal<(typeof PREFLIGHT_STATES)[number], PreflightState>>,
];
