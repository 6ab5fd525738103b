import { describe, expect, it } from "vitest";
import { CallCauses } from "./call-causes.js";

describe("CallCauses", () => {
  it("traces every id a call was sent under (modern input rounds) until it ends", () => {
    const causes = new CallCauses();
    const cause = { caller: "session-1", requestId: 7 };
    const call = causes.track(cause);
    call.onRequestId(1);
    call.onRequestId(2);
    expect(causes.of(1)).toBe(cause);
    expect(causes.of(2)).toBe(cause);
    expect(causes.inFlight("session-1")).toBe(1);
    call.end();
    expect(causes.of(1)).toBeUndefined();
    expect(causes.of(2)).toBeUndefined();
    expect(causes.callers()).toEqual([]);
  });
});
