export { Relay } from "./relay.js";
export type { FetchLike, Mediator, RelayOptions, Signer } from "./relay.js";
export { RelayError } from "./errors.js";
export type { WatchEvent, WatchOptions } from "./watch.js";
export {
  CLIENT_CODES, ERROR_CODES, FORWARD_FIELDS, METHODS, NETWORK_PASSPHRASES, NETWORKS, NULLABLE_FIELDS,
  OPTIONAL_FIELDS, OPTIONAL_VARIANT_FIELDS, PREFLIGHT_STATES, SCHEMA_FIELDS, SUBMISSION_FIELDS,
} from "./fields.js";
export type { ClientCode, ErrorCode } from "./fields.js";
export type * from "./types.js";
