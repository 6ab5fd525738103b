import { expect } from "vitest";
import { rejectionOf } from "../contract-helpers.js";
import {
  ALWAYS,
  allOf,
  capability,
  type ServerContractContext,
} from "../server-contract-context.js";

const LEGACY_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

function initializeParams(protocolVersion: string) {
  return { protocolVersion, capabilities: {}, clientInfo: { name: "contract-raw", version: "1" } };
}

/** MCP "Lifecycle": initialize, version negotiation, capabilities, ordering, ping, sessions. */
export function defineLifecycleCases(context: ServerContractContext): void {
  const raw = capability(context.capabilities.rawLifecycle, "rawLifecycle");

  context.test("initialize agrees on 2025-11-25 and returns serverInfo", ALWAYS, async () => {
    const client = await context.connectClient();
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
    });
  });

  context.test(
    "capabilities declare tools, resources with subscribe, prompts, logging and completions",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      expect(client.serverCapabilities).toMatchObject({
        tools: expect.any(Object),
        resources: expect.objectContaining({ subscribe: true }),
        prompts: expect.any(Object),
        logging: expect.any(Object),
        completions: expect.any(Object),
      });
    },
  );

  context.test(
    "an unsupported protocol version is answered with a supported one, not an error",
    raw,
    async () => {
      const connection = await context.connectRaw();
      const result = (await connection.request("initialize", initializeParams("1999-01-01"))) as {
        protocolVersion: string;
      };
      expect(LEGACY_VERSIONS).toContain(result.protocolVersion);
    },
  );

  context.test("an older supported version is echoed", raw, async () => {
    const connection = await context.connectRaw();
    const result = (await connection.request("initialize", initializeParams("2025-03-26"))) as {
      protocolVersion: string;
    };
    expect(result.protocolVersion).toBe("2025-03-26");
  });

  const early = allOf(
    raw,
    capability(context.capabilities.requestsBeforeInitialize, "requestsBeforeInitialize"),
  );
  context.test("a request before initialize is refused with a JSON-RPC error", early, async () => {
    const connection = await context.connectRaw();
    const error = await rejectionOf(connection.request("tools/list", {}));
    expect(error.code).toEqual(expect.any(Number));
  });

  context.test("ping is answered with an empty result", ALWAYS, async () => {
    const client = await context.connectClient();
    await expect(client.ping()).resolves.toBeUndefined();
  });

  context.test(
    "two sessions at once keep their own logging level",
    allOf(capability(context.capabilities.concurrentSessions, "concurrentSessions")),
    async () => {
      const quiet = await context.connectClient();
      const chatty = await context.connectClient();
      const quietLevels: string[] = [];
      const chattyLevels: string[] = [];
      quiet.on("notifications/message", (params) => quietLevels.push(params.level));
      chatty.on("notifications/message", (params) => chattyLevels.push(params.level));
      await quiet.setLoggingLevel("emergency");
      await quiet.callTool({ name: "log_at_every_level" });
      await chatty.callTool({ name: "log_at_every_level" });
      expect(quietLevels).toEqual(["emergency"]);
      expect(chattyLevels).toHaveLength(8);
    },
  );
}
