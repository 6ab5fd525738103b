import { describe, expect, it } from "vitest";
import { deriveServerCapabilities } from "./server-capabilities.js";

const none = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };

describe("deriveServerCapabilities", () => {
  it("declares only logging for an empty server", () => {
    expect(deriveServerCapabilities(none)).toEqual({ logging: {} });
  });

  it("declares each feature once something of its kind is registered", () => {
    expect(
      deriveServerCapabilities({ tools: 1, resources: 0, resourceTemplates: 1, prompts: 1 }),
    ).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  it("declares features named in the options even when nothing is registered yet", () => {
    const capabilities = deriveServerCapabilities(none, {
      tools: {},
      experimental: { custom: {} },
    });
    expect(capabilities.tools).toEqual({ listChanged: true });
    expect(capabilities.experimental).toEqual({ custom: {} });
  });

  it("lets the options turn a sub-capability off", () => {
    const capabilities = deriveServerCapabilities(
      { ...none, resources: 1 },
      { resources: { subscribe: false } },
    );
    expect(capabilities.resources).toEqual({ subscribe: false, listChanged: true });
  });
});
