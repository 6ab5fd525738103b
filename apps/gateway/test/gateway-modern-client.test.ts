import { type Client, type ClientOptions, createClient } from "@patchbay/client";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  gatewayCli,
  lineWatcher,
  temporaryDirectory,
  writeConfig,
} from "./gateway-helpers.js";

/** The answers of a modern client that declares sampling, elicitation and roots. */
const HANDLERS: ClientOptions = {
  elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
  sampling: () => ({
    role: "assistant",
    model: "patchbay-test",
    content: { type: "text", text: "hi" },
  }),
  roots: () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
};

function textOf(result: { content: unknown }): string {
  const [block] = result.content as { type: string; text?: string }[];
  return block?.text ?? "";
}

/** A gateway child process with the sample backend behind it twice: legacy only, modern only. */
function gatewayTransport(stderr: (line: string) => void) {
  const sample = (version: string) => ({
    command: process.execPath,
    args: [backends.sample, "--protocol-versions", version, "--step-delay-ms", "0"],
  });
  const path = writeConfig(temporaryDirectory(), {
    mcpServers: { old: sample("2025-11-25"), new: sample("2026-07-28") },
  });
  return createStdioClientTransport({
    command: process.execPath,
    args: [gatewayCli, "--config", path, "--log-level", "debug"],
    stderr,
  });
}

const stderr = lineWatcher();
const errors: Error[] = [];
let client: Client;

beforeAll(async () => {
  client = createClient(
    { name: "modern-stdio-client", version: "1.0.0" },
    { ...HANDLERS, protocolEra: "modern", requestTimeoutMs: 20_000 },
  );
  await client.connect(gatewayTransport((line) => stderr.push(line)));
  // A request from the gateway would be dropped and reported here.
  client.connection?.onError((error) => errors.push(error));
}, 20_000);

afterAll(async () => {
  await client?.close();
});

it("discovers the gateway with server/discover", { timeout: 10_000 }, () => {
  expect(client.protocolEra).toBe("modern");
  expect(client.serverInfo?.name).toBe("patchbay-gateway");
  expect(client.serverCapabilities?.tools).toMatchObject({ listChanged: true });
});

describe.each([
  ["legacy", "old"],
  ["modern-only", "new"],
])(
  "@patchbay/client (modern) over stdio through the gateway to the %s backend",
  (_era, backend) => {
    it("lists and calls the backend's tools", { timeout: 10_000 }, async () => {
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toContain(`${backend}__test_simple_text`);
      const simple = await client.callTool({ name: `${backend}__test_simple_text` });
      expect(textOf(simple)).toBe("This is a simple text response for testing.");
    });

    it("answers the backend's elicitation, sampling and roots in input_required rounds", {
      timeout: 10_000,
    }, async () => {
      const answered = await client.callTool({
        name: `${backend}__test_input_required_result_multiple_inputs`,
      });
      expect(textOf(answered)).toBe("name=Ada greeting=hi roots=1");
    });

    it("hears the backend's tool list change on a subscriptions/listen stream", {
      timeout: 10_000,
    }, async () => {
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.acknowledged).toMatchObject({ toolsListChanged: true });
      const changed = new Promise<Record<string, unknown>>((resolve) => {
        const off = client.on("notifications/tools/list_changed", (params) => {
          off();
          resolve(params);
        });
      });
      await client.callTool({ name: `${backend}__test_trigger_tool_change` });
      expect(await changed).toMatchObject({
        _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
      });
      await subscription.close();
      await subscription.ended;
    });

    it("cancels the backend's tool with notifications/cancelled", { timeout: 10_000 }, async () => {
      const aborter = new AbortController();
      const call = client.callTool(
        { name: `${backend}__long_task`, arguments: { steps: 3, stepMs: 60_000 } },
        {
          signal: aborter.signal,
          // The first report means the tool runs in the backend: cancel then.
          onProgress: () => aborter.abort(new Error("the caller gave up")),
        },
      );
      await expect(call).rejects.toThrow(/was cancelled/);
      // The gateway ended the call as cancelled (its debug log of requests), not as answered.
      const name = `${backend}__long_task`;
      expect(await stderr.next(new RegExp(`tools/call ${name}`))).toMatch(
        new RegExp(`^patchbay-gateway debug: request\\.cancelled tools/call ${name}: failure`),
      );
    });
  },
);

it("was never sent a request (2026-07-28 stdio: the server asks through results)", () => {
  expect(errors).toEqual([]);
});
