import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backends,
  gatewayCli,
  lineWatcher,
  temporaryDirectory,
  writeConfig,
} from "./gateway-helpers.js";

function textOf(result: unknown): string {
  const [block] = (result as { content: { type: string; text?: string }[] }).content;
  return block?.text ?? "";
}

describe("the official SDK 2.4 client pinned to 2026-07-28 over stdio through the gateway", () => {
  const stderr = lineWatcher();
  let client: Client;

  beforeAll(async () => {
    // One gateway, the sample backend behind it twice: legacy only, and modern only.
    const sample = (version: string) => ({
      command: process.execPath,
      args: [backends.sample, "--protocol-versions", version, "--step-delay-ms", "0"],
    });
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: { old: sample("2025-11-25"), new: sample("2026-07-28") },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [gatewayCli, "--config", path, "--log-level", "debug"],
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.pushChunk(chunk.toString()));
    client = new Client(
      { name: "sdk-v2-client", version: "2.4.0" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    client.setRequestHandler("elicitation/create", async () => ({
      action: "accept",
      content: { name: "Grace" },
    }));
    await client.connect(transport);
  }, 20_000);

  afterAll(async () => {
    await client?.close();
  });

  it("discovers the gateway in 2026-07-28 and lists both backends' tools", {
    timeout: 10_000,
  }, async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerVersion()?.name).toBe("patchbay-gateway");
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["old__test_simple_text", "new__test_simple_text"]),
    );
  });

  it.each(["old", "new"])(
    "calls a tool of the %s backend",
    { timeout: 10_000 },
    async (backend) => {
      const simple = await client.callTool({ name: `${backend}__test_simple_text` });
      expect(textOf(simple)).toBe("This is a simple text response for testing.");
    },
  );

  it.each(["old", "new"])(
    "answers the %s backend's elicitation in an input_required round",
    { timeout: 10_000 },
    async (backend) => {
      const greeted = await client.callTool({
        name: `${backend}__test_input_required_result_elicitation`,
      });
      expect(textOf(greeted)).toBe("Hello, Grace!");
    },
  );

  it("declares to the modern backend its own capabilities, not the gateway's", {
    timeout: 10_000,
  }, async () => {
    // The backend asks only through what the request declared: this client declared elicitation
    // only, where the gateway's session toward its backends declares sampling too.
    const answered = await client.callTool({
      name: "new__test_input_required_result_capabilities",
    });
    expect(textOf(answered)).toBe("answered 1 input request(s)");
  });

  it("hears the modern backend's tool list change on its subscriptions/listen stream", {
    timeout: 10_000,
  }, async () => {
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    await client.callTool({ name: "new__test_trigger_tool_change" });
    await changed;
    await subscription.close();
  });

  it("cancels a call with notifications/cancelled", { timeout: 10_000 }, async () => {
    const aborter = new AbortController();
    const call = client.callTool(
      { name: "new__long_task", arguments: { steps: 3, stepMs: 60_000 } },
      {
        signal: aborter.signal,
        // The first report means the tool runs in the backend: cancel then.
        onprogress: () => aborter.abort(new Error("the caller gave up")),
      },
    );
    await expect(call).rejects.toThrow();
    // The gateway ended the call as cancelled (its debug log of requests), not as answered.
    expect(await stderr.next(/tools\/call new__long_task/)).toMatch(
      /^patchbay-gateway debug: request\.cancelled tools\/call new__long_task: failure/,
    );
  });
});
