import { describe, expect, it } from "vitest";
import { chooseRelayTarget } from "./relay-target.js";

const request = (over: Partial<Parameters<typeof chooseRelayTarget>[0]> = {}) => ({
  backend: "asker",
  method: "sampling/createMessage" as const,
  cause: undefined,
  busyCallers: [],
  ...over,
});

describe("relay target rules", () => {
  it("a per-session backend's request goes to its own session", () => {
    const target = chooseRelayTarget(request({ busyCallers: ["s2"] }), ["s1", "s2"], "s1");
    expect(target).toEqual({ session: "s1", rule: "owner" });
  });

  it("a request related to a call goes to the session that made the call", () => {
    const target = chooseRelayTarget(
      request({ cause: { caller: "s2", requestId: 7 }, busyCallers: ["s1", "s2"] }),
      ["s1", "s2"],
    );
    expect(target).toEqual({ session: "s2", rule: "related-call" });
  });

  it("a request related to a call of a session that is gone is refused", () => {
    const target = chooseRelayTarget(request({ cause: { caller: "s9", requestId: 0 } }), ["s1"]);
    expect(target).toEqual({ refused: expect.stringContaining("is gone") });
  });

  it("a request naming no call goes to the only session with calls in flight", () => {
    const target = chooseRelayTarget(request({ busyCallers: ["s2"] }), ["s1", "s2"]);
    expect(target).toEqual({ session: "s2", rule: "only-caller" });
  });

  it("a request naming no call is refused when several sessions have calls in flight", () => {
    const target = chooseRelayTarget(request({ busyCallers: ["s1", "s2"] }), ["s1", "s2"]);
    expect(target).toEqual({ refused: expect.stringContaining("2 clients have calls in flight") });
  });

  it("a request outside any call goes to the only session that sees the backend", () => {
    expect(chooseRelayTarget(request(), ["s1"])).toEqual({ session: "s1", rule: "only-session" });
  });

  it("a request outside any call is refused when several sessions see the backend", () => {
    const target = chooseRelayTarget(request(), ["s1", "s2"]);
    expect(target).toEqual({ refused: expect.stringContaining("2 clients could have caused") });
  });

  it("a request is refused when no session is ready to answer it", () => {
    const target = chooseRelayTarget(request(), []);
    expect(target).toEqual({ refused: expect.stringContaining("no connected client") });
  });

  it("a busy caller that is not ready (not initialized, other profile) does not count", () => {
    const target = chooseRelayTarget(request({ busyCallers: ["s3"] }), ["s1"]);
    expect(target).toEqual({ session: "s1", rule: "only-session" });
  });
});
