import { type Client, createClient } from "@patchbay/client";
import { createMemoryTransportPair, type JSONRPCId } from "@patchbay/jsonrpc-core";
import { createServer } from "@patchbay/server";
import {
  createStreamableHttpServer,
  StreamableHttpClientTransport,
  type StreamableHttpServer,
} from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRouter, type Router } from "../src/router/create-router.js";
import { configOf } from "./harness.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A router over one in-memory backend whose tool asks the caller's model, served over HTTP. */
async function startGateway(): Promise<{ url: URL; router: Router; http: StreamableHttpServer }> {
  const backend = createServer({ name: "asker", version: "1.0.0" });
  backend.registerTool(
    "ask",
    { inputSchema: z.object({ who: z.string() }) },
    async ({ who }, context) => {
      const answer = await context.sample({
        messages: [{ role: "user", content: { type: "text", text: `hello ${who}` } }],
        maxTokens: 5,
      });
      return { content: [answer.content as never] };
    },
  );
  const router = createRouter({
    config: configOf({ mcpServers: { asker: { command: "x" } } }),
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await backend.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const http = await createStreamableHttpServer({
    onSession: async (transport) => {
      await router.serve(transport);
    },
  });
  cleanups.push(async () => {
    await http.close();
    await router.close();
    await backend.close();
  });
  return { url: http.url, router, http };
}

describe("router over Streamable HTTP", () => {
  it("sends each client's relayed sampling request on the POST stream of the call that caused it", async () => {
    const { url } = await startGateway();
    const related: Record<string, JSONRPCId | undefined> = {};
    const connect = async (name: string): Promise<Client> => {
      const client = createClient(
        { name, version: "1.0.0" },
        {
          sampling: async (params, context) => {
            related[name] = context.relatedRequestId;
            const first = params.messages[0] as { content: { text: string } };
            const text = first.content.text;
            return {
              role: "assistant",
              content: { type: "text", text: `${name} read "${text}"` },
              model: "m",
            };
          },
        },
      );
      // No standalone GET stream: a request not sent on a POST stream could not arrive at all.
      await client.connect(new StreamableHttpClientTransport({ url, standaloneStream: false }));
      cleanups.push(() => client.close());
      return client;
    };
    const [alice, bob] = [await connect("alice"), await connect("bob")];
    const [aliceResult, bobResult] = await Promise.all([
      alice.callTool({ name: "asker__ask", arguments: { who: "alice" } }),
      bob.callTool({ name: "asker__ask", arguments: { who: "bob" } }),
    ]);
    expect(aliceResult.content).toEqual([{ type: "text", text: 'alice read "hello alice"' }]);
    expect(bobResult.content).toEqual([{ type: "text", text: 'bob read "hello bob"' }]);
    // Each client's transport saw the request on the answer stream of its own tools/call.
    expect(related.alice).toEqual(expect.any(Number));
    expect(related.bob).toEqual(expect.any(Number));
  });
});
