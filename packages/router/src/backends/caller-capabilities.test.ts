import { describe, expect, it } from "vitest";
import { callerCapabilities, capabilitiesForCaller } from "./caller-capabilities.js";

const meta = (clientCapabilities: Record<string, unknown>) => ({
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
  },
});

describe("a modern caller's capabilities toward a modern backend", () => {
  it("takes sampling, elicitation and roots from the request's _meta, nothing else", () => {
    expect(
      callerCapabilities(
        meta({ elicitation: { form: {} }, experimental: { x: {} }, extensions: { e: {} } }),
      ),
    ).toEqual({ elicitation: { form: {} } });
    expect(callerCapabilities(meta({}))).toEqual({});
  });

  it("is undefined for params without the modern _meta (a legacy client's)", () => {
    expect(callerCapabilities({ name: "tool" })).toBeUndefined();
  });

  it("replaces the gateway's relayed capabilities with the caller's and keeps the rest", () => {
    const own = {
      sampling: {},
      elicitation: {},
      roots: { listChanged: true },
      extensions: { e: {} },
    };
    expect(capabilitiesForCaller(own, { roots: {} })).toEqual({ roots: {}, extensions: { e: {} } });
    expect(capabilitiesForCaller(own, {})).toEqual({ extensions: { e: {} } });
  });
});
