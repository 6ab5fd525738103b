import type { Client } from "@patchbay/client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHarness, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("router under load", () => {
  it("gives every call of many concurrent clients exactly its own answer", async () => {
    harness = await createHarness(
      { mcpServers: { echo: { command: "x" } } },
      {
        echo: (server) =>
          server.registerTool(
            "echo",
            { inputSchema: z.object({ text: z.string() }) },
            async ({ text }, context) => {
              await context.progress(1, 1, text);
              return { content: [{ type: "text", text }] };
            },
          ),
      },
    );
    const clients: Client[] = [harness.client];
    for (let index = 1; index < 8; index += 1) clients.push(await harness.connectClient());
    const calls = clients.flatMap((client, clientIndex) =>
      Array.from({ length: 60 }, async (_, callIndex) => {
        const text = `client ${clientIndex} call ${callIndex}`;
        const progress: string[] = [];
        const result = await client.callTool(
          { name: "echo__echo", arguments: { text } },
          { onProgress: (update) => progress.push(String(update.message)) },
        );
        return { text, answer: (result.content[0] as { text: string }).text, progress };
      }),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes).toHaveLength(480);
    for (const outcome of outcomes) {
      expect(outcome.answer).toBe(outcome.text);
      expect(outcome.progress).toEqual([outcome.text]);
    }
    await Promise.all(clients.slice(1).map((client) => client.close()));
  });
});
