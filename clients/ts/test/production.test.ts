// The codes a relay run as in production gives and `load local`'s default
// stack does not: RATE_LIMITED (rate limits on) and MEDIATOR_NOT_CONFIGURED
// (no master), from the real relay.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Relay } from "@closerelay/client";
import { rejects } from "./support/assert.js";
import { startRelay, type TestRelay } from "./support/relay.js";

describe("a relay with its production rate limits and no mediator master", () => {
  let relay: TestRelay;
  let r: Relay;
  before(async () => {
    relay = await startRelay(1, "horizon", ["--rate-limits", "--no-mediator"]);
    r = new Relay(relay.url);
  });
  after(() => relay?.stop());

  it("answers MEDIATOR_NOT_CONFIGURED to a mint", async () => {
    await rejects(r.mediator.mint(relay.accounts[0].address), 500, "MEDIATOR_NOT_CONFIGURED");
  });

  it("answers RATE_LIMITED, with Retry-After, to a burst of status reads", async () => {
    const id = relay.accounts[0].plan;
    for (let i = 0; i < 200; i++) {
      try {
        await r.status(id);
      } catch (e) {
        const err = await rejects(Promise.reject(e), 429, "RATE_LIMITED");
        assert.ok(typeof err.retryAfter === "number" && err.retryAfter > 0, `retryAfter ${err.retryAfter}`);
        return;
      }
    }
    assert.fail("200 status reads in a burst, none throttled");
  });
});
