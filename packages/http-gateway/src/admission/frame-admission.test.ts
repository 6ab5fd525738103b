import type { JSONRPCMessage } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./admission.js";
import { chargeRequests, limitBatchSize } from "./frame-admission.js";

const request = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "tools/list" });
const note: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
const payer = { addressKey: "address 10.0.0.1", tokenKey: "token alpha" };

/** A limiter whose clock never moves: buckets never refill during a test. */
function frozenLimiter(requestsPerMinute: number) {
  return {
    limiter: createRateLimiter({ requestsPerMinute, now: () => 0 }),
    requestsPerMinute,
  };
}

describe("frame admission", () => {
  it("charges each request of a batch one unit of both buckets, and notifications nothing", async () => {
    const options = frozenLimiter(3);
    const admitted = await chargeRequests(
      [request(1), note, request(2), request(3), request(4)],
      {},
      payer,
      options,
    );
    expect(admitted.frame).toEqual([request(1), note, request(2), request(3)]);
    expect(admitted.answers).toEqual([]);
    expect(admitted.info.rejected).toEqual([
      {
        jsonrpc: "2.0",
        id: 4,
        error: {
          code: -32015,
          message: "rate limit of 3 requests per minute exceeded",
          data: { retryAfterSeconds: 20 },
        },
      },
    ]);
    expect(admitted.refused.map((refused) => refused.refusal.limitedBy)).toEqual(["address"]);
    // The token's bucket paid for the same three requests.
    expect(options.limiter.take("token alpha").allowed).toBe(false);
  });

  it("answers a single refused request at once and lets nothing on", async () => {
    const options = frozenLimiter(1);
    options.limiter.take("token alpha");
    const admitted = await chargeRequests(request(7), {}, payer, options);
    expect(admitted.frame).toBeUndefined();
    expect(admitted.answers).toMatchObject([{ id: 7, error: { code: -32015 } }]);
    expect(admitted.refused.map((refused) => refused.refusal.limitedBy)).toEqual(["token"]);
  });

  it("charges only the address when auth is off", async () => {
    const options = frozenLimiter(1);
    const admitted = await chargeRequests(
      request(1),
      {},
      { ...payer, tokenKey: undefined },
      options,
    );
    expect(admitted.frame).toEqual(request(1));
    expect(options.limiter.take("token alpha").allowed).toBe(true);
  });

  it("refuses a batch over maxBatchSize whole, counting its invalid entries too", () => {
    const batch = [request(1), request(2)];
    const invalid = { jsonrpc: "2.0" as const, id: null, error: { code: -32600, message: "x" } };
    expect(limitBatchSize(batch, {}, 2).frame).toEqual(batch);
    const refused = limitBatchSize(batch, { rejected: [invalid] }, 2);
    expect(refused.frame).toBeUndefined();
    expect(refused.answers).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message: "a batch of 3 requests exceeds the limit of 2 (limits.maxBatchSize)",
        },
      },
    ]);
  });
});
