// Package mediator mints mediator flows and co-signs their forward
// transactions. It is pure and stateless apart from one memo: the master key,
// parsed from MEDIATOR_SECRET at first use.
//
// # Why a mediator
//
// Some exchanges credit a deposit only from a payment that carries their memo;
// an account merge cannot carry one in a way they credit. To close an account
// into such a destination D, the wallet merges the account into a fresh,
// ephemeral mediator account M, and M then forwards the funds to D in a
// second, two-operation transaction that carries the memo: a payment of all
// but M's last 1 XLM, which the memo credits, then M's merge into D, which
// carries that last unit as a merge. The relay co-signs
// that forward with M's key, which only it can derive, and only when the
// forward pays exactly the D that was fixed when the flow started. A
// compromised relay therefore still cannot send the funds anywhere but D.
//
// # The flow, as a wallet implements it
//
//  1. Mint. GET /api/mediator/sign?destination=D, D a G… account (a muxed
//     M… address is refused with INVALID_DESTINATION). The answer is
//     {"flowToken": T, "mediatorPublicKey": M}. Every GET mints a new,
//     independent flow; T verifies for 15 minutes. Adding
//     &memo=<type>:<value> commits the forward's memo as well (see "Memo
//     commitment").
//  2. Build the mediator plan. Only with both T and M in hand: the first
//     classic batch of the close starts with CREATE_ACCOUNT funding M with 2
//     units of the native asset, and the close's final ACCOUNT_MERGE targets
//     M instead of D. Collect signatures through /api/plan as for any close
//     and submit it.
//  3. Forward. Build the forward (shape below), sourced from M with M's
//     current sequence number, carrying the exchange's memo. POST
//     {"envelopeXdr": <base64 envelope>, "flowToken": T, "network":
//     "mainnet"|"testnet"|"futurenet"} to /api/mediator/sign, as
//     application/json of at most 16,384 bytes. On success the answer is
//     {"ok": true, "signedXdr": <the envelope with M's signature appended>,
//     "hash": <64 lowercase hex, the transaction hash under that network>};
//     submit signedXdr to the ledger. The forward may be posted again while
//     T is valid, for instance after a failed submission; re-posting an
//     envelope that already carries M's signature returns it unchanged.
//
// The relay stores nothing per flow. A wallet that wants to resume an
// interrupted forward keeps T (and M) itself; after T expires the forward can
// no longer be co-signed, and funds already merged into M stay there until an
// operator holding the master re-derives M's key from N. So post the forward
// as soon as the close has landed.
//
// Every refusal is JSON {"ok": false, "code": <CODE>, "reason": <a sentence
// for humans>}; branch on code only. The route also answers 429
// RATE_LIMITED (5 co-sign POSTs per 60 s per client IP, with a Retry-After
// header in seconds; minting is not limited), 413 PAYLOAD_TOO_LARGE, 405
// METHOD_NOT_ALLOWED for PUT, PATCH, DELETE and HEAD (header Allow: POST, GET,
// OPTIONS) and 204 to OPTIONS.
//
// # Derivation
//
// The master is the 32-byte raw ed25519 seed inside MEDIATOR_SECRET (a seed
// strkey, "S" and 55 more characters). It is used only as an HMAC-SHA-256
// key; it never signs and holds no balance. For a flow with nonce N (16 random
// bytes as 32 lowercase hex characters):
//
//	flow seed = HMAC-SHA-256(master, "mediator-flow-key:" + N)   // 32 bytes, the ed25519 seed of M
//	MAC       = HMAC-SHA-256(master, "mediator-flow-token:" + N + "." + E + "." + D)
//	MAC       = HMAC-SHA-256(master, "mediator-flow-token:" + N + "." + E + "." + D + "." + P)  // with a memo
//
// where E, D and P are the token's expiry, destination and memo parts
// exactly as written, and M is the G… address of the ed25519 key with that
// seed. The memo does not enter the flow seed: M depends on N alone. The
// derivation is deterministic, so every instance holding the master co-signs
// every flow, and an operator holding the master can recompute M from N.
// testdata/vectors.json holds fixed masters, nonces, expiries and
// destinations with the flow seed, M, MAC and token they must give, for
// another implementation to check itself against this one.
//
// # Flow token
//
//	<N>.<E>.<D>.<MAC>
//
// N is 32 lowercase hex characters; E the expiry in Unix milliseconds as a
// decimal integer (mint time + 15 minutes); D the committed G… destination;
// MAC 64 hex characters (minted lowercase; verified in either case). The token
// is opaque to the wallet: send it back as received. Because D sits under the
// MAC, a leaked token cannot redirect a flow's funds.
//
// Verification runs seven checks in order and answers only valid or invalid
// (INVALID_FLOW_TOKEN): the token is a string; it has four parts (or five,
// below); N matches ^[0-9a-f]{32}$; D is a valid G… account; E is a finite
// number later than the current time in milliseconds; the MAC is hex of the
// right length; the MAC matches under a constant-time comparison.
//
// # Memo commitment (CONTRACT section 13)
//
// A wallet that knows the memo the exchange credits can have the relay hold
// the forward to it: GET /api/mediator/sign?destination=D&memo=<type>:<value>
// mints a flow whose token has a fifth part,
//
//	<N>.<E>.<D>.<P>.<MAC>
//
// and the relay then co-signs only a forward that carries exactly that memo,
// type and value, so a leaked token cannot have the funds credited to
// another customer of D either. Without the memo parameter the token is the
// four parts above and any memo is signed, as before.
//
// The memo query value is one of (percent-encode it in the URL):
//
//	text:<t>     MEMO_TEXT t: valid UTF-8, 1 to 28 bytes, taken byte for byte
//	id:<n>       MEMO_ID n: a decimal uint64, no sign, no leading zeros ("0" is fine)
//	hash:<h>     MEMO_HASH h: 64 hex characters, either case
//	return:<h>   MEMO_RETURN h: likewise
//
// Anything else, an empty value or an empty parameter included, is 400
// INVALID_MEMO; so is a memo parameter given twice. Minting checks the
// destination first (INVALID_DESTINATION), then the memo (INVALID_MEMO), then
// the configuration (MEDIATOR_NOT_CONFIGURED).
//
// P is the memo's canonical text in base64url without padding (RFC 4648
// section 5): the type as above, a colon, and the value, with the text as
// given, the id in decimal without leading zeros, and a hash in lowercase
// hex. One memo has exactly one P: "hash:AB…" is committed as "hash:ab…",
// and verification refuses a P that is not the canonical text in the one
// encoding (padding, line breaks, uppercase hex, a leading zero, non-zero
// trailing bits). Verification reads P after D and before E, and refuses a
// five-part token whose P is not such a memo; the MAC covers P.
//
// A forward under a five-part token must carry that memo: otherwise 400
// FORWARD_MEMO_NOT_COMMITTED, checked right after
// FORWARD_DESTINATION_NOT_COMMITTED and before the time bounds. MEMO_NONE,
// another value, or the same value under another type (a hash committed,
// the same 32 bytes as a return memo) are all refused.
//
// # Accepted forward envelope
//
// Exactly one shape is signed:
//
//   - a classic transaction envelope (V1, or legacy V0), not a fee-bump;
//   - transaction source M, as a plain G… account (M in muxed M… form is a
//     different address and is refused);
//   - exactly two operations:
//     op0 PAYMENT of the native asset to D, source M or omitted;
//     op1 ACCOUNT_MERGE to D, source M or omitted;
//   - both destinations the same address string, equal to D from the token
//     (again, a muxed M… form of D is a different address);
//   - time bounds present, with maxTime positive and at most 3600 seconds
//     after the relay's clock (exactly 3600 is accepted, 3601 is not). minTime
//     is not checked, and a maxTime already past is not refused here: the
//     ledger refuses such a transaction itself. The relay's clock is not the
//     wallet's: a timeout of a few minutes, well inside the hour, leaves room
//     for skew.
//
// The memo (unless the token commits one), fee, sequence number, payment
// amount and any signatures already present are the wallet's business and
// are left untouched. The signature is
// over the transaction hash under the passphrase of the network named in the
// request, so a forward signed for testnet is useless on mainnet.
//
// # Codes
//
// Minting: INVALID_DESTINATION (400), then INVALID_MEMO (400, only with a
// memo parameter), then MEDIATOR_NOT_CONFIGURED (500, MEDIATOR_SECRET unset
// or not a valid seed).
//
// Co-signing, first failure wins: RATE_LIMITED (429), PAYLOAD_TOO_LARGE
// (413), BAD_REQUEST (400: the body is not a JSON object, or envelopeXdr or
// flowToken is missing, empty or not a string), BAD_NETWORK (400),
// MEDIATOR_NOT_CONFIGURED (500), INVALID_FLOW_TOKEN (400: the token failed
// verification, expiry included; mint a new flow), then the forward checks,
// all 400, in this order:
//
//	MALFORMED_XDR                      not strict base64 XDR of a transaction envelope (line breaks included), or trailing bytes
//	FEE_BUMP_NOT_ALLOWED               the envelope is a fee-bump
//	FORWARD_TX_SOURCE_NOT_MEDIATOR     transaction source is not M
//	WRONG_OPERATION_COUNT              not exactly two operations
//	FORWARD_OP0_NOT_PAYMENT            op0 is not PAYMENT
//	FORWARD_OP0_ASSET_NOT_NATIVE       op0 pays a non-native asset
//	FORWARD_OP0_SOURCE_NOT_MEDIATOR    op0 has a source other than M
//	FORWARD_OP1_NOT_ACCOUNT_MERGE      op1 is not ACCOUNT_MERGE
//	FORWARD_OP1_SOURCE_NOT_MEDIATOR    op1 has a source other than M
//	FORWARD_DESTINATION_MISMATCH       payment and merge name different addresses
//	FORWARD_DESTINATION_NOT_COMMITTED  that address is not D
//	FORWARD_MEMO_NOT_COMMITTED         five-part token only: the memo is not the committed one
//	MISSING_TIME_BOUNDS                no time bounds; or maxTime is 0 (two sites, two reasons)
//	TIME_BOUNDS_EXCESSIVE              maxTime more than 3600 s ahead
//
// One more refusal follows the checks: an envelope that already carries 20
// signatures (the XDR maximum) has no room for M's and answers MALFORMED_XDR.
//
// # For the HTTP layer
//
// Service implements the route: Mint and Cosign refuse with *errcode.Error
// values, whose Code (and its status, from errcode's one table) is the
// answer and whose Reason is safe to show. A MEDIATOR_NOT_CONFIGURED error
// unwraps to ErrNotConfigured or ErrMalformedSecret, for the operator's log;
// the route should not show the distinction to clients. Any error that is
// not an *errcode.Error is internal.
//
// Networks, envelope decoding and encoding, the transaction hash and the
// signature cap are package ledger's, the same rules the plan routes apply:
// a network is exactly one of ledger.ParseNetwork's identifiers, with no
// fallback, and the forward must decode under ledger.DecodeEnvelope (strict
// base64: a line break or non-zero padding bits are MALFORMED_XDR).
package mediator
