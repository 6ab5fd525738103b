import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectClient, nextEvent, rejectionOf } from "./harness.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function createPrompts(): Server {
  const created = createServer({ name: "prompts", version: "1" });
  created.registerPrompt(
    "greet",
    {
      title: "Greet",
      description: "Greets someone",
      arguments: [
        {
          name: "name",
          required: true,
          complete: (value, context) =>
            ["Ada", "Alan", "Grace", context.arguments.style ?? ""].filter(
              (name) => name !== "" && name.startsWith(value),
            ),
        },
        { name: "style" },
      ],
    },
    ({ name, style = "plain" }) => ({
      description: "A greeting",
      messages: [{ role: "user", content: { type: "text", text: `Hello ${name} (${style})` } }],
    }),
  );
  created.registerPrompt(
    "many",
    { arguments: [{ name: "n", complete: () => Array.from({ length: 150 }, (_, i) => `v${i}`) }] },
    () => ({
      messages: [],
    }),
  );
  return created;
}

describe("prompts", () => {
  it("lists prompts with their arguments but not their completion providers", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const [greet] = await client.listAllPrompts();
    expect(greet).toEqual({
      name: "greet",
      title: "Greet",
      description: "Greets someone",
      arguments: [{ name: "name", required: true }, { name: "style" }],
    });
  });

  it("gets a prompt with its arguments", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const result = await client.getPrompt({
      name: "greet",
      arguments: { name: "Ada", style: "warm" },
    });
    expect(result).toEqual({
      description: "A greeting",
      messages: [{ role: "user", content: { type: "text", text: "Hello Ada (warm)" } }],
    });
  });

  it("answers a missing required argument with -32602 naming it", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const error = await rejectionOf(client.getPrompt({ name: "greet" }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("name");
  });

  it("answers an unknown prompt with -32602", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    expect((await rejectionOf(client.getPrompt({ name: "nope" }))).code).toBe(-32602);
  });

  it("completes prompt arguments using the other arguments as context", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const result = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "A" },
      context: { arguments: { style: "Anon" } },
    });
    expect(result.completion.values).toEqual(["Ada", "Alan", "Anon"]);
  });

  it("sends at most 100 completion values and says there are more", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "many" },
      argument: { name: "n", value: "" },
    });
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it("completes nothing for an argument without a provider", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "style", value: "" },
    });
    expect(completion.values).toEqual([]);
  });

  it("answers a completion for an unknown prompt with -32602", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const error = await rejectionOf(
      client.complete({
        ref: { type: "ref/prompt", name: "nope" },
        argument: { name: "a", value: "" },
      }),
    );
    expect(error.code).toBe(-32602);
  });

  it("sends prompts/list_changed when a prompt is removed", async () => {
    server = createPrompts();
    const { client } = await connectClient(server);
    const added = nextEvent((listener) =>
      client.on("notifications/prompts/list_changed", listener),
    );
    const registration = server.registerPrompt("temp", {}, () => ({ messages: [] }));
    await added;
    const removed = nextEvent((listener) =>
      client.on("notifications/prompts/list_changed", listener),
    );
    registration.remove();
    await removed;
    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).not.toContain("temp");
  });
});
