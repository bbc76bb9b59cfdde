import assert from "node:assert/strict";
import { RelayError } from "@closerelay/client";

/** Asserts that `p` rejects with a RelayError of this status and code, with a reason. */
export async function rejects(p: Promise<unknown>, status: number, code: string): Promise<RelayError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof RelayError, `not a RelayError: ${e}`);
    assert.equal(e.name, "RelayError");
    assert.deepEqual({ status: e.status, code: e.code }, { status, code }, e.message);
    assert.equal(typeof e.reason, "string");
    assert.ok(e.reason.length > 0, "an empty reason");
    assert.ok(e instanceof Error);
    return e;
  }
  assert.fail(`resolved; expected RelayError ${status} ${code}`);
}

/** Resolves once `cond` holds, polling every 20 ms; fails after `ms`. */
export async function until(cond: () => boolean, ms = 10_000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
