import { JSONRPCError } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { CatalogueConflictError } from "../src/catalogue/conflict.js";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import { BackendSignInRequiredError } from "../src/errors/sign-in-required.js";
import {
  configOf,
  createHarness,
  createManualClock,
  type Harness,
  waitForNotification,
} from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const echo = (server: Server) =>
  server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));

function statusOf(value: unknown) {
  return (value as { structuredContent: { backends: Record<string, Record<string, unknown>> } })
    .structuredContent.backends;
}

describe("router: a backend that goes down", () => {
  it("fails in-flight calls at once with a gateway error naming the backend", async () => {
    let started!: () => void;
    const inTool = new Promise<void>((resolve) => {
      started = resolve;
    });
    harness = await createHarness(
      { mcpServers: { flaky: { command: "x", restart: false } } },
      {
        flaky: (server) =>
          server.registerTool("hang", {}, () => {
            started();
            return new Promise<never>(() => {});
          }),
      },
    );
    const call = harness.client.callTool({ name: "flaky__hang" }).catch((error: unknown) => error);
    await inTool;
    await harness.transports.get("flaky")?.[0]?.close();
    const error = (await call) as JSONRPCError;
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(error.code).toBe(GatewayErrorCode.BackendConnectionClosed);
    expect(error.message).toContain('"flaky"');
    expect(error.data).toMatchObject({ backend: "flaky" });
  });

  it("removes its tools with list_changed and keeps the others working", async () => {
    harness = await createHarness(
      { mcpServers: { flaky: { command: "x", restart: false }, steady: { command: "y" } } },
      { flaky: echo, steady: echo },
    );
    const changed = waitForNotification(harness.client, "notifications/tools/list_changed");
    await harness.transports.get("flaky")?.[0]?.close();
    await changed;
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).not.toContain("flaky__echo");
    expect(names).toContain("steady__echo");
    const status = statusOf(await harness.client.callTool({ name: "gateway_status" }));
    expect(status.flaky).toMatchObject({ status: "failed", tool_count: 0 });
    expect(String(status.flaky?.last_error)).toMatch(/restart is disabled/);
    expect((await harness.client.callTool({ name: "steady__echo" })).content).toEqual([
      { type: "text", text: "hi" },
    ]);
  });

  it("answers a call to a down backend's former tool naming the backend and its status", async () => {
    harness = await createHarness(
      { mcpServers: { flaky: { command: "x", restart: false } } },
      { flaky: echo },
    );
    const changed = waitForNotification(harness.client, "notifications/tools/list_changed");
    await harness.transports.get("flaky")?.[0]?.close();
    await changed;
    await expect(harness.client.callTool({ name: "flaky__echo" })).rejects.toMatchObject({
      code: GatewayErrorCode.BackendUnavailable,
      message: 'Backend "flaky" is unavailable (failed)',
      data: { backend: "flaky", status: "failed" },
    });
  });

  it("restarts it after the backoff delay and brings its tools back", async () => {
    const clock = createManualClock();
    harness = await createHarness(
      { mcpServers: { flaky: { command: "x", restart: { initialDelayMs: 1000 } } } },
      { flaky: echo },
      { clock },
    );
    const gone = waitForNotification(harness.client, "notifications/tools/list_changed");
    await harness.transports.get("flaky")?.[0]?.close();
    await gone;
    const restarting = statusOf(await harness.client.callTool({ name: "gateway_status" }));
    expect(restarting.flaky).toMatchObject({ status: "restarting" });
    const back = waitForNotification(harness.client, "notifications/tools/list_changed");
    clock.advance(999);
    expect(harness.servers.get("flaky")).toHaveLength(1);
    clock.advance(1);
    await back;
    expect(harness.servers.get("flaky")).toHaveLength(2);
    const status = statusOf(await harness.client.callTool({ name: "gateway_status" }));
    expect(status.flaky).toMatchObject({ status: "running", restarts: 1, tool_count: 1 });
    expect((await harness.client.callTool({ name: "flaky__echo" })).isError).toBeUndefined();
    const events = await harness.client.callTool({
      name: "get_events",
      arguments: { event_type: "backend.*" },
    });
    const types = JSON.parse((events.content[0] as { text: string }).text).map(
      (event: { event_type: string }) => event.event_type,
    );
    expect(types).toEqual(["backend.restarted", "backend.crashed", "backend.started"]);
  });

  it("tells its clients in their log that it went down and came back", async () => {
    const clock = createManualClock();
    harness = await createHarness(
      { mcpServers: { flaky: { command: "x", restart: { initialDelayMs: 10 } } } },
      { flaky: echo },
      { clock },
    );
    const messages: { level: string; logger: string; data: string }[] = [];
    harness.client.on("notifications/message", (params) => messages.push(params as never));
    const down = waitForNotification(harness.client, "notifications/message");
    await harness.transports.get("flaky")?.[0]?.close();
    await down;
    const back = waitForNotification(harness.client, "notifications/message");
    clock.advance(10);
    await back;
    expect(messages).toEqual([
      expect.objectContaining({
        level: "warning",
        logger: "patchbay-gateway",
        data: expect.stringMatching(/^Backend "flaky" is down .*restarting in 10 ms/),
      }),
      expect.objectContaining({ level: "notice", data: 'Backend "flaky" is running again.' }),
    ]);
  });

  it("marks a backend that cannot start as failed without failing the gateway", async () => {
    harness = await createHarness(
      { mcpServers: { broken: { command: "x", restart: false }, ok: { command: "y" } } },
      {
        broken: () => {
          throw new Error("spawn failed");
        },
        ok: echo,
      },
    );
    const status = statusOf(await harness.client.callTool({ name: "gateway_status" }));
    expect(status.broken).toMatchObject({ status: "failed" });
    expect(String(status.broken?.last_error)).toContain("spawn failed");
    expect(status.ok).toMatchObject({ status: "running" });
  });
});

describe("router: a backend that needs a sign-in", () => {
  it("waits for it without restarts, says what to run, and runs once signed in", {
    timeout: 5_000,
  }, async () => {
    const hint = "not signed in to https://tracker.example.com/mcp; run: login tracker";
    let signedIn = false;
    harness = await createHarness(
      { mcpServers: { tracker: { url: "https://tracker.example.com/mcp" }, ok: { command: "y" } } },
      {
        tracker: (server) => {
          if (!signedIn) throw new BackendSignInRequiredError(hint);
          echo(server);
        },
        ok: echo,
      },
    );
    const status = statusOf(await harness.client.callTool({ name: "gateway_status" }));
    expect(status.tracker).toMatchObject({
      status: "needs_sign_in",
      last_error: hint,
      restarts: 0,
    });
    expect(status.ok).toMatchObject({ status: "running" });
    // Never listed, its tools are still known as its: a call tries it again, then says what to run.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(harness.client.callTool({ name: "tracker__echo" })).rejects.toMatchObject({
        code: GatewayErrorCode.BackendUnavailable,
        message: `Backend "tracker" is unavailable (needs_sign_in): ${hint}`,
      });
    }
    const events = await harness.client.callTool({
      name: "get_events",
      arguments: { event_type: "backend.crashed", backend: "tracker" },
    });
    const recorded = JSON.parse((events.content as { text: string }[])[0]?.text ?? "[]");
    expect(recorded).toHaveLength(1);
    expect(recorded[0].data).toEqual({ reason: hint, gave_up: "not restarted until signed in" });

    signedIn = true;
    expect((await harness.client.callTool({ name: "tracker__echo" })).content).toEqual([
      { type: "text", text: "hi" },
    ]);
  });
});

describe("router: starting", () => {
  it("starts a lazy backend on the first list and not before", async () => {
    harness = await createHarness(
      { mcpServers: { later: { command: "x", start: "lazy" } } },
      { later: echo },
    );
    expect(harness.servers.get("later")).toBeUndefined();
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toContain("later__echo");
    expect(harness.servers.get("later")).toHaveLength(1);
  });

  it("refuses to start with conflictPolicy error and reports the conflict", async () => {
    const attempt = createHarness(
      {
        conflictPolicy: "error",
        mcpServers: { a: { command: "x", namespace: "" }, b: { command: "y", namespace: "" } },
      },
      { a: echo, b: echo },
    );
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CatalogueConflictError);
    expect((error as CatalogueConflictError).conflicts).toEqual([
      expect.objectContaining({ name: "echo", claimants: ["a", "b"], resolution: "rejected" }),
    ]);
  });

  it("resolves a collision of unprefixed names by the backend key under prefix", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x", namespace: "" }, b: { command: "y", namespace: "" } } },
      { a: echo, b: echo },
    );
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(["gateway_status", "get_events", "echo", "b__echo"]);
    const status = (await harness.client.callTool({ name: "gateway_status" }))
      .structuredContent as {
      gateway: { conflicts: unknown[] };
    };
    expect(status.gateway.conflicts).toEqual([
      expect.objectContaining({ name: "echo", resolution: "prefixed" }),
    ]);
  });
});

describe("router: config reload", () => {
  it("starts an added backend and tells the client its tools changed", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo, b: echo });
    const changed = waitForNotification(harness.client, "notifications/tools/list_changed");
    await harness.router.reload(
      configOf({ mcpServers: { a: { command: "x" }, b: { command: "y" } } }),
    );
    await changed;
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(["gateway_status", "get_events", "a__echo", "b__echo"]);
    expect(harness.servers.get("a")).toHaveLength(1);
  });

  it("answers a call to a removed backend's former tool with -32602", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x" }, b: { command: "y" } } },
      { a: echo, b: echo },
    );
    await harness.client.listAllTools();
    await harness.router.reload(configOf({ mcpServers: { a: { command: "x" } } }));
    await expect(harness.client.callTool({ name: "b__echo" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("ends the sessions of a profile the new config drops, and keeps the others", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x" } }, profiles: { team: { servers: ["a"] } } },
      { a: echo },
    );
    const onTeam = await harness.connectClient({}, { profile: "team" });
    const closed = new Promise<void>((resolve) => onTeam.onClose(() => resolve()));
    await harness.router.reload(configOf({ mcpServers: { a: { command: "x" } } }));
    await closed;
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(["gateway_status", "get_events", "a__echo"]);
  });

  it("stops a removed backend and restarts a changed one", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x" }, b: { command: "y" } } },
      { a: echo, b: echo },
    );
    await harness.router.reload(
      configOf({ mcpServers: { a: { command: "x", namespace: "alpha" } } }),
    );
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(["gateway_status", "get_events", "alpha__echo"]);
    expect(harness.servers.get("a")).toHaveLength(2);
  });

  it("governs tool calls from the reload that adds `limits.tools` on", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    expect((await harness.client.callTool({ name: "a__echo" })).isError).toBeUndefined();
    await harness.router.reload(
      configOf({
        mcpServers: { a: { command: "x" } },
        limits: { tools: { a__echo: { perMinute: 1 } } },
      }),
    );
    expect((await harness.client.callTool({ name: "a__echo" })).isError).toBeUndefined();
    expect((await harness.client.callTool({ name: "a__echo" })).isError).toBe(true);
  });
});

describe("router: isolation", () => {
  it("gives each client session its own per-session backend", async () => {
    harness = await createHarness(
      {
        mcpServers: {
          browser: { command: "x", isolation: "per-session" },
          shared: { command: "y" },
        },
      },
      { browser: echo, shared: echo },
    );
    await harness.client.listAllTools();
    const second = await harness.connectClient();
    await second.listAllTools();
    expect(harness.servers.get("browser")).toHaveLength(2);
    expect(harness.servers.get("shared")).toHaveLength(1);
    await second.close();
  });
});
