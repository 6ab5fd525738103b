import { describe, expect, it } from "vitest";
import { deriveClientCapabilities } from "./client-capabilities.js";

describe("deriveClientCapabilities", () => {
  it("declares nothing without handlers", () => {
    expect(deriveClientCapabilities({})).toEqual({});
  });

  it("declares one capability per handler", () => {
    const handler = () => {
      throw new Error("unused");
    };
    expect(
      deriveClientCapabilities({ sampling: handler, elicitation: handler, roots: handler }),
    ).toEqual({
      sampling: {},
      elicitation: {},
      roots: { listChanged: true },
    });
  });

  it("declares sampling tools and URL elicitation when asked", () => {
    const handler = () => {
      throw new Error("unused");
    };
    expect(
      deriveClientCapabilities({
        sampling: handler,
        samplingTools: true,
        elicitation: handler,
        elicitationModes: ["form", "url"],
      }),
    ).toEqual({ sampling: { tools: {} }, elicitation: { form: {}, url: {} } });
  });

  it("keeps extra capabilities", () => {
    expect(deriveClientCapabilities({}, { experimental: { x: {} } })).toEqual({
      experimental: { x: {} },
    });
  });
});
