import { describe, expect, it } from "vitest";
import { validateMessage } from "../src/validation/validate-message.js";
import { digestFixtures, legacyFixtures, modernFixtures } from "./fixtures.js";

describe("typical messages parse in every revision that defines them", () => {
  for (const fixture of [...digestFixtures, ...legacyFixtures, ...modernFixtures]) {
    for (const revision of fixture.revisions) {
      it(`${fixture.name} (${revision})`, () => {
        const result = validateMessage(revision, fixture.message, {
          ...(fixture.requestMethod === undefined ? {} : { requestMethod: fixture.requestMethod }),
        });
        if (!result.success) expect.fail(result.message);
        expect(result.data).toEqual(fixture.message);
      });
    }
  }
});

describe("revision differences are enforced", () => {
  it("refuses a resource_link block in 2025-03-26, where it did not exist yet", () => {
    const result = validateMessage(
      "2025-03-26",
      {
        jsonrpc: "2.0",
        id: 1,
        result: { content: [{ type: "resource_link", uri: "file:///a", name: "a" }] },
      },
      { requestMethod: "tools/call" },
    );
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues[0]?.path).toEqual(["result", "content", 0, "type"]);
  });

  it("refuses audio content in 2024-11-05", () => {
    const result = validateMessage(
      "2024-11-05",
      {
        jsonrpc: "2.0",
        id: 1,
        result: { content: [{ type: "audio", data: "", mimeType: "audio/wav" }] },
      },
      { requestMethod: "tools/call" },
    );
    expect(result.success).toBe(false);
  });

  it("refuses initialize in the modern revision", () => {
    const result = validateMessage("2026-07-28", legacyFixtures[0]?.message);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.issues[0]?.path).toEqual(["method"]);
      expect(result.message).toContain('"initialize" is not a request of revision 2026-07-28');
    }
  });

  it("refuses a modern request without the protocol version in _meta", () => {
    const result = validateMessage("2026-07-28", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.issues[0]?.path).toEqual([
        "params",
        "_meta",
        "io.modelcontextprotocol/protocolVersion",
      ]);
    }
  });

  it("refuses a modern result without resultType", () => {
    const result = validateMessage(
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, result: { content: [] } },
      { requestMethod: "tools/call" },
    );
    expect(result.success).toBe(false);
  });

  it("refuses a modern list result without caching hints", () => {
    const result = validateMessage(
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, result: { resultType: "complete", tools: [] } },
      { requestMethod: "tools/list" },
    );
    expect(result.success).toBe(false);
    if (!result.success) expect(result.message).toMatch(/ttlMs|cacheScope/);
  });

  it("refuses an input_required result with neither inputRequests nor requestState", () => {
    const result = validateMessage(
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, result: { resultType: "input_required" } },
      { requestMethod: "tools/call" },
    );
    expect(result.success).toBe(false);
  });

  it("refuses a batch outside 2025-03-26 unless asked to accept it", () => {
    const batch = legacyFixtures.find((fixture) => Array.isArray(fixture.message))?.message;
    const refused = validateMessage("2025-06-18", batch);
    expect(refused.success).toBe(false);
    if (!refused.success) expect(refused.message).toContain("Batches are not allowed");
    expect(validateMessage("2025-11-25", batch, { allowBatch: true }).success).toBe(true);
  });

  it("refuses initialize inside a batch", () => {
    const result = validateMessage("2025-03-26", [legacyFixtures[0]?.message]);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues[0]?.path).toEqual([0, "method"]);
  });

  it("refuses tasks/get before 2025-11-25 and after it", () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: "t" } };
    expect(validateMessage("2025-11-25", message).success).toBe(true);
    expect(validateMessage("2025-06-18", message).success).toBe(false);
    expect(validateMessage("2026-07-28", message).success).toBe(false);
  });

  it("requires requestId on notifications/cancelled except in 2025-11-25", () => {
    const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { reason: "x" } };
    expect(validateMessage("2025-11-25", message).success).toBe(true);
    expect(validateMessage("2025-06-18", message).success).toBe(false);
    expect(validateMessage("2026-07-28", message).success).toBe(false);
  });
});
