import type { ClientCode, ErrorCode } from "./fields.js";

/**
 * Every failure of the client. `status` is the HTTP status the relay
 * answered, or 0 when no relay answered (`NETWORK`) or the client refused
 * by itself (`MISMATCH`, `SIGNER`). `code` is the relay's `code` (see
 * ERROR_CODES) or one of CLIENT_CODES; `reason` is a sentence for people.
 */
export class RelayError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientCode | (string & {});
  readonly reason: string;
  /** The relay's Retry-After in seconds (429, and 503 at the stream's cap), when it sent one. */
  readonly retryAfter?: number;

  constructor(status: number, code: string, reason: string, options?: { retryAfter?: number; cause?: unknown }) {
    super(`closerelay: ${status === 0 ? "" : `${status} `}${code}: ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RelayError";
    this.status = status;
    this.code = code;
    this.reason = reason;
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}
