import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import { createHarness, type Harness, waitForNotification } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const twoBackends = {
  mcpServers: {
    github: { command: "unused" },
    files: { command: "unused", namespace: "fs" },
  },
};

function defineGithub(server: import("@patchbay/server").Server) {
  server.registerTool(
    "create_issue",
    { inputSchema: z.object({ title: z.string() }) },
    async ({ title }) => ({ content: [{ type: "text", text: `created ${title}` }] }),
  );
  server.registerTool("fails", {}, async () => ({
    content: [{ type: "text", text: "it broke" }],
    isError: true,
  }));
}

function defineFiles(server: import("@patchbay/server").Server) {
  server.registerTool("read", {}, async () => ({ content: [{ type: "text", text: "file body" }] }));
}

async function rejection(promise: Promise<unknown>): Promise<JSONRPCError> {
  try {
    await promise;
  } catch (error) {
    if (JSONRPCError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("router: tools", () => {
  it("lists every backend's tools under their namespaces beside the gateway's own", async () => {
    harness = await createHarness(twoBackends, { github: defineGithub, files: defineFiles });
    const tools = await harness.client.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "gateway_status",
      "get_events",
      "github__create_issue",
      "github__fails",
      "fs__read",
    ]);
  });

  it("routes a call to the owning backend under the backend's own name", async () => {
    harness = await createHarness(twoBackends, { github: defineGithub, files: defineFiles });
    const result = await harness.client.callTool({
      name: "github__create_issue",
      arguments: { title: "bug" },
    });
    expect(result.content).toEqual([{ type: "text", text: "created bug" }]);
    const read = await harness.client.callTool({ name: "fs__read" });
    expect(read.content).toEqual([{ type: "text", text: "file body" }]);
  });

  it("answers an unknown tool with -32602", async () => {
    harness = await createHarness(twoBackends, { github: defineGithub, files: defineFiles });
    const error = await rejection(harness.client.callTool({ name: "github__nope" }));
    expect(error.code).toBe(-32602);
  });

  it("keeps a tool that ran and failed a result with isError", async () => {
    harness = await createHarness(twoBackends, { github: defineGithub, files: defineFiles });
    const result = await harness.client.callTool({ name: "github__fails" });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "it broke" }]);
  });

  it("passes a backend's protocol error through with backend and originalError in data", async () => {
    harness = await createHarness(
      { mcpServers: { docs: { command: "x" } } },
      {
        docs: (server) =>
          server.registerResource("a", "file:///a", {}, async () => ({
            contents: [{ uri: "file:///a", text: "A" }],
          })),
      },
    );
    const error = await rejection(harness.client.readResource({ uri: "file:///missing" }));
    expect(error.code).not.toBe(GatewayErrorCode.GatewayInternalError);
    expect(error.data).toMatchObject({
      backend: "docs",
      originalError: { code: error.code, message: error.message },
    });
  });

  it("relays progress with the caller's token", async () => {
    harness = await createHarness(
      { mcpServers: { slow: { command: "x" } } },
      {
        slow: (server) =>
          server.registerTool("work", {}, async (_args, context) => {
            await context.progress(1, 2, "half");
            await context.progress(2, 2, "done");
            return { content: [{ type: "text", text: "ok" }] };
          }),
      },
    );
    const seen: unknown[] = [];
    await harness.client.callTool(
      { name: "slow__work" },
      { onProgress: (progress) => seen.push(progress) },
    );
    expect(seen).toEqual([
      expect.objectContaining({ progress: 1, total: 2, message: "half" }),
      expect.objectContaining({ progress: 2, total: 2, message: "done" }),
    ]);
  });

  it("sends the caller's cancellation on to the backend", async () => {
    let aborted!: () => void;
    const backendSawAbort = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    let started!: () => void;
    const backendStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    harness = await createHarness(
      { mcpServers: { slow: { command: "x" } } },
      {
        slow: (server) =>
          server.registerTool("hang", {}, (_args, context) => {
            started();
            return new Promise<never>((_resolve, reject) => {
              context.signal.addEventListener("abort", () => {
                aborted();
                reject(new Error("aborted"));
              });
            });
          }),
      },
    );
    const controller = new AbortController();
    const call = harness.client.callTool({ name: "slow__hang" }, { signal: controller.signal });
    await backendStarted;
    controller.abort();
    await expect(call).rejects.toThrow();
    await backendSawAbort;
  });

  it("fails a call that outlives the backend's timeout with the gateway timeout code", async () => {
    harness = await createHarness(
      { mcpServers: { slow: { command: "x", timeoutMs: 30 } } },
      {
        slow: (server) => server.registerTool("hang", {}, () => new Promise<never>(() => {})),
      },
    );
    const error = await rejection(harness.client.callTool({ name: "slow__hang" }));
    expect(error.code).toBe(GatewayErrorCode.BackendTimeout);
    expect(error.data).toMatchObject({ backend: "slow" });
  });
});

describe("router: backend notifications", () => {
  it("tags a backend's log message with the backend name", async () => {
    harness = await createHarness(
      { mcpServers: { talk: { command: "x" } } },
      {
        talk: (server) =>
          server.registerTool("say", {}, async (_args, context) => {
            await context.log("info", "hello", "inner");
            return { content: [] };
          }),
      },
    );
    await harness.client.setLoggingLevel("debug");
    const message = waitForNotification(harness.client, "notifications/message");
    await harness.client.callTool({ name: "talk__say" });
    expect(await message).toMatchObject({ level: "info", logger: "talk/inner", data: "hello" });
  });

  it("refreshes the catalogue and tells the client when a backend's tools change", async () => {
    harness = await createHarness(
      { mcpServers: { grow: { command: "x" } } },
      {
        grow: (server) => server.registerTool("one", {}, async () => ({ content: [] })),
      },
    );
    const changed = waitForNotification(harness.client, "notifications/tools/list_changed");
    harness.servers.get("grow")?.[0]?.registerTool("two", {}, async () => ({ content: [] }));
    await changed;
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toContain("grow__two");
  });
});

describe("router: server-to-client requests", () => {
  const sampler = {
    mcpServers: { asker: { command: "x" } },
  };
  const defineAsker = (server: import("@patchbay/server").Server) =>
    server.registerTool("ask", {}, async (_args, context) => {
      const answer = await context.sample({
        messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
        maxTokens: 5,
      });
      return { content: [answer.content as never] };
    });

  it("relays sampling to the client whose call caused it", async () => {
    harness = await createHarness(
      sampler,
      { asker: defineAsker },
      {
        client: {
          sampling: async () => ({
            role: "assistant",
            content: { type: "text", text: "4" },
            model: "m",
          }),
        },
      },
    );
    const result = await harness.client.callTool({ name: "asker__ask" });
    expect(result.content).toEqual([{ type: "text", text: "4" }]);
  });

  it("refuses sampling for a client without the capability and shows it in the status", async () => {
    harness = await createHarness(sampler, { asker: defineAsker });
    await expect(harness.client.callTool({ name: "asker__ask" })).rejects.toMatchObject({
      message:
        "The connected client does not support sampling/createMessage (no sampling capability)",
    });
    const status = (await harness.client.callTool({ name: "gateway_status" }))
      .structuredContent as {
      backends: Record<string, { refused_requests: Record<string, number> }>;
    };
    expect(status.backends.asker?.refused_requests).toEqual({ "sampling/createMessage": 1 });
  });
});
