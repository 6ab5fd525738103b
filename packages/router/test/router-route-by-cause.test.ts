import type { Client, ClientOptions } from "@patchbay/client";
import { JSONRPCError } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import { BACKEND_META_KEY } from "../src/sessions/relay-to-client.js";
import { createHarness, createManualClock, type Harness, waitForNotification } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A promise with its resolve function. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** What one client's server-to-client handlers received. */
interface Inbox {
  sampling: Record<string, unknown>[];
  elicitation: Record<string, unknown>[];
  roots: number;
}

/** Handlers that answer with `name` and record what they got. */
function answeringAs(name: string): { options: ClientOptions; inbox: Inbox } {
  const inbox: Inbox = { sampling: [], elicitation: [], roots: 0 };
  return {
    inbox,
    options: {
      sampling: async (params) => {
        inbox.sampling.push(params as Record<string, unknown>);
        return { role: "assistant", content: { type: "text", text: name }, model: "m" };
      },
      elicitation: async (params) => {
        inbox.elicitation.push(params as Record<string, unknown>);
        return { action: "accept", content: { name } };
      },
      roots: async () => {
        inbox.roots += 1;
        return { roots: [{ uri: `file:///${name}` }] };
      },
    },
  };
}

const question = {
  messages: [{ role: "user" as const, content: { type: "text" as const, text: "who?" } }],
  maxTokens: 5,
};

/** The gate a long tool waits on, and a way to know it has started. */
function longTool() {
  const started = deferred();
  const release = deferred();
  const define = (server: Server) =>
    server.registerTool("long", {}, async () => {
      started.resolve();
      await release.promise;
      return { content: [{ type: "text", text: "long done" }] };
    });
  return { started, release, define };
}

/** The text of a tool result's first content block. */
function textOf(result: { content?: unknown }): string {
  return ((result.content as { text: string }[])[0] as { text: string }).text;
}

/** A tool that asks with no relation to its call (as over stdio) and reports what happened. */
function askWithoutRelation(server: Server) {
  server.registerTool("ask_unrelated", {}, async (_args, context) => {
    try {
      // A legacy session: the modern era has none, and this tool asks outside the call on purpose.
      const answer = await context.session!.sample(question);
      return {
        content: [
          { type: "text", text: `answered by ${(answer.content as { text: string }).text}` },
        ],
      };
    } catch (error) {
      const code = JSONRPCError.isInstance(error) ? error.code : "local";
      return { content: [{ type: "text", text: `refused ${code}: ${(error as Error).message}` }] };
    }
  });
}

function defineAsker(server: Server, long?: (server: Server) => void) {
  long?.(server);
  askWithoutRelation(server);
  server.registerTool(
    "ask",
    { inputSchema: z.object({ kind: z.string() }) },
    async ({ kind }, context) => {
      if (kind === "sampling") {
        const answer = await context.sample(question);
        return { content: [{ type: "text", text: (answer.content as { text: string }).text }] };
      }
      if (kind === "elicitation") {
        const answer = await context.elicit({
          message: "Name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        });
        return { content: [{ type: "text", text: String(answer.content?.name) }] };
      }
      const roots = await context.listRoots();
      return { content: [{ type: "text", text: roots.roots.map((root) => root.uri).join(",") }] };
    },
  );
}

describe("router: server-to-client requests go to the client whose call caused them", () => {
  it("gives Alice her sampling request while Bob runs a long tool, and Bob none", async () => {
    const long = longTool();
    const alice = answeringAs("alice");
    const bob = answeringAs("bob");
    // Bob is the first session: "the first client with calls in flight" would pick him.
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server, long.define) },
      { client: bob.options, clock: createManualClock() },
    );
    const aliceClient = await harness.connectClient(alice.options);
    const bobCall = harness.client.callTool({ name: "asker__long" });
    await long.started.promise;
    const aliceResult = await aliceClient.callTool({
      name: "asker__ask",
      arguments: { kind: "sampling" },
    });
    expect(textOf(aliceResult)).toBe("alice");
    long.release.resolve();
    expect(textOf(await bobCall)).toBe("long done");
    expect(alice.inbox.sampling).toHaveLength(1);
    expect(bob.inbox.sampling).toHaveLength(0);
  });

  it("answers concurrent sampling, elicitation and roots of a shared backend each by its caller", async () => {
    const clients: [string, ReturnType<typeof answeringAs>][] = ["ann", "ben", "cat"].map(
      (name) => [name, answeringAs(name)],
    );
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server) },
      {
        client: (clients[0] as [string, ReturnType<typeof answeringAs>])[1].options,
        clock: createManualClock(),
      },
    );
    const connected: Client[] = [harness.client];
    for (const [, handlers] of clients.slice(1))
      connected.push(await harness.connectClient(handlers.options));
    const calls = connected.flatMap((client) =>
      ["sampling", "elicitation", "roots"].map((kind) =>
        client.callTool({ name: "asker__ask", arguments: { kind } }),
      ),
    );
    const texts = (await Promise.all(calls)).map(textOf);
    expect(texts).toEqual([
      "ann",
      "ann",
      "file:///ann",
      "ben",
      "ben",
      "file:///ben",
      "cat",
      "cat",
      "file:///cat",
    ]);
    for (const [, handlers] of clients) {
      expect(handlers.inbox.sampling).toHaveLength(1);
      expect(handlers.inbox.elicitation).toHaveLength(1);
      expect(handlers.inbox.roots).toBe(1);
    }
  });

  it("names the asking backend in the relayed request's _meta", async () => {
    const alice = answeringAs("alice");
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server) },
      { client: alice.options },
    );
    await harness.client.callTool({ name: "asker__ask", arguments: { kind: "sampling" } });
    expect(alice.inbox.sampling[0]?._meta).toMatchObject({ [BACKEND_META_KEY]: "asker" });
  });

  it("sends a request that names no call to the only client with calls in flight", async () => {
    const alice = answeringAs("alice");
    const bob = answeringAs("bob");
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server) },
      { client: alice.options, clock: createManualClock() },
    );
    await harness.connectClient(bob.options);
    const result = await harness.client.callTool({ name: "asker__ask_unrelated" });
    expect(textOf(result)).toBe("answered by alice");
    expect(bob.inbox.sampling).toHaveLength(0);
  });

  it("refuses a request that names no call when several clients have calls in flight", async () => {
    const long = longTool();
    const alice = answeringAs("alice");
    const bob = answeringAs("bob");
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server, long.define) },
      { client: alice.options, clock: createManualClock() },
    );
    const bobClient = await harness.connectClient(bob.options);
    const bobCall = bobClient.callTool({ name: "asker__long" });
    await long.started.promise;
    const result = await harness.client.callTool({ name: "asker__ask_unrelated" });
    expect(textOf(result)).toMatch(
      new RegExp(
        `^refused ${GatewayErrorCode.RelayTargetUnknown}: .*2 clients have calls in flight`,
      ),
    );
    long.release.resolve();
    await bobCall;
    expect(alice.inbox.sampling).toHaveLength(0);
    expect(bob.inbox.sampling).toHaveLength(0);
    const refusals = harness.router.telemetry.query({ event_type: "request.refused" });
    expect(refusals).toHaveLength(1);
  });

  it("refuses a request made outside any call when two clients could have caused it", async () => {
    const alice = answeringAs("alice");
    const bob = answeringAs("bob");
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server) },
      { client: alice.options, clock: createManualClock() },
    );
    await harness.connectClient(bob.options);
    const session = harness.servers.get("asker")?.[0]?.sessions[0];
    const error = await session?.sample(question).catch((caught: unknown) => caught);
    expect(JSONRPCError.isInstance(error) && error.code).toBe(GatewayErrorCode.RelayTargetUnknown);
    expect(alice.inbox.sampling).toHaveLength(0);
    expect(bob.inbox.sampling).toHaveLength(0);
  });

  it("sends a request made outside any call to the only client connected", async () => {
    const alice = answeringAs("alice");
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: (server) => defineAsker(server) },
      { client: alice.options, clock: createManualClock() },
    );
    const session = harness.servers.get("asker")?.[0]?.sessions[0];
    const answer = await session?.sample(question);
    expect(answer?.content).toEqual({ type: "text", text: "alice" });
  });

  it("keeps a per-session backend's requests with its own client while another client is busy", async () => {
    const long = longTool();
    const alice = answeringAs("alice");
    const bob = answeringAs("bob");
    harness = await createHarness(
      {
        mcpServers: {
          asker: { command: "x", isolation: "per-session" },
          slow: { command: "x" },
        },
      },
      { asker: (server) => defineAsker(server), slow: long.define },
      { client: alice.options, clock: createManualClock() },
    );
    const bobClient = await harness.connectClient(bob.options);
    const bobCall = bobClient.callTool({ name: "slow__long" });
    await long.started.promise;
    // Asked with no relation, from Alice's own backend: it can only be hers.
    expect(textOf(await harness.client.callTool({ name: "asker__ask_unrelated" }))).toBe(
      "answered by alice",
    );
    expect(textOf(await bobClient.callTool({ name: "asker__ask_unrelated" }))).toBe(
      "answered by bob",
    );
    long.release.resolve();
    await bobCall;
    expect(alice.inbox.sampling).toHaveLength(1);
    expect(bob.inbox.sampling).toHaveLength(1);
  });

  it("sends a backend's log message about a call to that call's client only", async () => {
    harness = await createHarness(
      { mcpServers: { logger: { command: "x" } } },
      {
        logger: (server) => {
          server.registerTool("work", {}, async (_args, context) => {
            await context.log("info", "working for the caller");
            return { content: [{ type: "text", text: "done" }] };
          });
          server.registerTool("announce", {}, async () => {
            await server.log("info", "for everyone");
            return { content: [{ type: "text", text: "announced" }] };
          });
        },
      },
      { clock: createManualClock() },
    );
    const bobClient = await harness.connectClient();
    const bobHeard = waitForNotification(bobClient, "notifications/message");
    const aliceHeard = waitForNotification(harness.client, "notifications/message");
    await harness.client.callTool({ name: "logger__work" });
    expect((await aliceHeard).data).toBe("working for the caller");
    await harness.client.callTool({ name: "logger__announce" });
    // Bob's first message is the one for everyone: the caller's never reached him.
    expect((await bobHeard).data).toBe("for everyone");
  });
});
