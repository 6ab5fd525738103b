import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { type AdmissionOptions, admit, admitAtOnce, createRateLimiter } from "./admission.js";
import { createTokenAuthenticator } from "./token-auth.js";

const request = (authorization?: string) =>
  ({
    headers: authorization === undefined ? {} : { authorization },
    socket: { remoteAddress: "10.0.0.1" },
  }) as unknown as IncomingMessage;

function optionsWith(more: Partial<AdmissionOptions> = {}): AdmissionOptions {
  return {
    guard: () => undefined,
    limiter: createRateLimiter({ requestsPerMinute: 2, now: () => 0 }),
    requestsPerMinute: 2,
    authenticator: undefined,
    oauth: undefined,
    trustProxy: false,
    ownerOf: (sessionId) => (sessionId === "theirs" ? "someone" : undefined),
    ...more,
  };
}

describe("admitAtOnce", () => {
  it("decides at once without tokens and with in-process buckets, in admit's order", () => {
    const options = optionsWith();
    expect(admitAtOnce(options, request(), undefined, undefined)).toMatchObject({
      name: "anonymous",
    });
    expect(admitAtOnce(options, request(), undefined, "theirs")).toMatchObject({ status: 404 });
    expect(admitAtOnce(options, request(), undefined, undefined)).toMatchObject({
      status: 429,
      limitedBy: "address",
    });
    const guarded = optionsWith({ guard: () => ({ message: "foreign origin" }) as never });
    expect(admitAtOnce(guarded, request(), undefined, undefined)).toEqual({
      status: 403,
      message: "foreign origin",
    });
  });

  it("hands back a promise when a bearer token is to be checked, as admit does", async () => {
    const options = optionsWith({
      authenticator: createTokenAuthenticator([{ name: "ci", token: "secret-token" }]),
    });
    const checked = admitAtOnce(options, request("Bearer secret-token"), undefined, undefined);
    expect(checked).toBeInstanceOf(Promise);
    expect(await checked).toMatchObject({ name: "ci" });
    expect(await admit(request("Bearer wrong"), undefined, undefined, options)).toMatchObject({
      status: 401,
    });
  });

  it("makes admit reject, not throw, when a step throws", async () => {
    const options = optionsWith({
      guard: () => {
        throw new Error("guard broke");
      },
    });
    const admitted = admit(request(), undefined, undefined, options);
    await expect(admitted).rejects.toThrow("guard broke");
  });
});
