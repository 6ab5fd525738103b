import { describe, expect, it } from "vitest";
import { PROTOCOL_VERSIONS } from "../versions.js";
import { METHOD_TABLE } from "./method-table.js";
import { getMethodDescriptor, REVISION_METHODS } from "./revision-methods.js";

describe("method descriptors", () => {
  it("exist exactly in the revisions the method table lists", () => {
    for (const [method, info] of Object.entries(METHOD_TABLE)) {
      for (const revision of PROTOCOL_VERSIONS) {
        const descriptor = getMethodDescriptor(revision, method);
        if ((info.revisions as readonly string[]).includes(revision)) {
          expect(descriptor, `${method} in ${revision}`).toBeDefined();
          expect(descriptor?.kind).toBe(info.kind);
          expect(descriptor?.revision).toBe(revision);
          expect(descriptor?.revisions).toEqual(info.revisions);
        } else {
          expect(descriptor, `${method} must not be in ${revision}`).toBeUndefined();
        }
      }
    }
  });

  it("cover every method of every revision (no descriptor outside the table)", () => {
    for (const revision of PROTOCOL_VERSIONS) {
      for (const method of Object.keys(REVISION_METHODS[revision])) {
        expect(Object.keys(METHOD_TABLE)).toContain(method);
      }
    }
  });

  it("say who sends each method", () => {
    const legacy = REVISION_METHODS["2025-11-25"];
    expect(legacy["tools/call"].direction).toBe("client-to-server");
    expect(legacy["sampling/createMessage"].direction).toBe("server-to-client");
    expect(legacy.ping.direction).toBe("both");
    expect(REVISION_METHODS["2026-07-28"]["notifications/progress"].direction).toBe(
      "server-to-client",
    );
  });

  it("accept absent params for methods whose params are optional in legacy revisions", () => {
    for (const method of [
      "ping",
      "tools/list",
      "resources/list",
      "prompts/list",
      "roots/list",
    ] as const) {
      expect(REVISION_METHODS["2024-11-05"][method].params.safeParse(undefined).success).toBe(true);
    }
    expect(REVISION_METHODS["2026-07-28"]["tools/list"].params.safeParse(undefined).success).toBe(
      false,
    );
  });

  it("does not find methods of other revisions or unknown names", () => {
    expect(getMethodDescriptor("2024-11-05", "elicitation/create")).toBeUndefined();
    expect(getMethodDescriptor("2025-11-25", "toString")).toBeUndefined();
  });
});
