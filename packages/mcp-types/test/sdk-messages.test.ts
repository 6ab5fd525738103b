import { beforeAll, describe, expect, it } from "vitest";
import type { Capture } from "./helpers/captured.js";
import { captureSdkV1Exchange } from "./helpers/sdk-v1-exchange.js";
import {
  captureSdkV2LegacyExchange,
  captureSdkV2ModernExchange,
} from "./helpers/sdk-v2-exchange.js";

describe("messages produced by @modelcontextprotocol/sdk 1.32.2 (2025-11-25)", () => {
  let capture: Capture;
  beforeAll(async () => {
    capture = await captureSdkV1Exchange();
  });

  it("covers lifecycle, tools, resources, prompts, completion, logging, sampling, elicitation, roots, progress and cancellation", () => {
    const seen = capture.methodsSeen();
    for (const method of [
      "initialize",
      "notifications/initialized",
      "ping",
      "logging/setLevel",
      "tools/list",
      "tools/call",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "completion/complete",
      "prompts/list",
      "prompts/get",
      "sampling/createMessage",
      "elicitation/create",
      "roots/list",
      "notifications/message",
      "notifications/progress",
      "notifications/cancelled",
      "notifications/roots/list_changed",
    ]) {
      expect(seen, method).toContain(method);
    }
  });

  it("all parse with the 2025-11-25 schemas", () => {
    expect(capture.refusedBy("2025-11-25")).toEqual([]);
  });

  it("refuses nothing that 2025-06-18 already defined when checked with 2025-06-18", () => {
    const refused = capture.refusedBy("2025-06-18").map((entry) => entry.reason);
    expect(refused).toEqual([]);
  });
});

describe("messages produced by @modelcontextprotocol/client and /server 2.4.0", () => {
  let modern: Capture;
  let legacy: Capture;
  beforeAll(async () => {
    modern = await captureSdkV2ModernExchange();
    legacy = await captureSdkV2LegacyExchange();
  });

  it("speak 2026-07-28 when pinned: server/discover, MRTR and per-request _meta", () => {
    const seen = modern.methodsSeen();
    expect(seen).toContain("server/discover");
    expect(seen).not.toContain("initialize");
    const inputRequired = modern.messages.filter(
      ({ message }) =>
        (message.result as { resultType?: string } | undefined)?.resultType === "input_required",
    );
    expect(inputRequired.length).toBe(2);
    const kinds = inputRequired.flatMap(({ message }) =>
      Object.values(
        (message.result as { inputRequests?: Record<string, { method: string }> }).inputRequests ??
          {},
      ).map((request) => request.method),
    );
    expect(kinds.sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
  });

  it("all parse with the 2026-07-28 schemas", () => {
    expect(modern.refusedBy("2026-07-28")).toEqual([]);
  });

  it("in their default legacy mode all parse with the 2025-11-25 schemas", () => {
    expect(legacy.methodsSeen()).toContain("initialize");
    expect(legacy.refusedBy("2025-11-25")).toEqual([]);
  });
});
