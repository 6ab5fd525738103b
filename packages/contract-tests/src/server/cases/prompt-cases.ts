import { expect } from "vitest";
import { rejectionOf } from "../contract-helpers.js";
import { FIXTURE_TEMPLATE, TEST_IMAGE_BASE64 } from "../fixture-names.js";
import { ALWAYS, type ServerContractContext } from "../server-contract-context.js";

/** MCP "Prompts" and "Completion". */
export function definePromptCases(context: ServerContractContext): void {
  context.test("gets a prompt without arguments", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.getPrompt({ name: "test_simple_prompt" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
    ]);
  });

  context.test("gets a prompt with its arguments substituted", ALWAYS, async () => {
    const client = await context.connectClient();
    const prompts = await client.listAllPrompts();
    const declared = prompts.find((prompt) => prompt.name === "test_prompt_with_arguments");
    expect(declared?.arguments?.map((argument) => argument.name)).toEqual(["arg1", "arg2"]);
    const result = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "first", arg2: "second" },
    });
    expect(result.messages[0]?.content).toEqual({
      type: "text",
      text: "Prompt with arguments: arg1='first', arg2='second'",
    });
  });

  context.test("gets prompts with an embedded resource and with an image", ALWAYS, async () => {
    const client = await context.connectClient();
    const embedded = await client.getPrompt({
      name: "test_prompt_with_embedded_resource",
      arguments: { resourceUri: "test://example-resource" },
    });
    expect(embedded.messages[0]?.content).toMatchObject({
      type: "resource",
      resource: { uri: "test://example-resource", text: expect.any(String) },
    });
    const image = await client.getPrompt({ name: "test_prompt_with_image" });
    expect(image.messages[0]?.content).toEqual({
      type: "image",
      data: TEST_IMAGE_BASE64,
      mimeType: "image/png",
    });
  });

  context.test("a missing required argument and an unknown prompt are -32602", ALWAYS, async () => {
    const client = await context.connectClient();
    expect((await rejectionOf(client.getPrompt({ name: "test_prompt_with_arguments" }))).code).toBe(
      -32602,
    );
    expect((await rejectionOf(client.getPrompt({ name: "no_such_prompt" }))).code).toBe(-32602);
  });

  context.test("completes a prompt argument with at most 100 values", ALWAYS, async () => {
    const client = await context.connectClient();
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "" },
    });
    expect(Array.isArray(completion.values)).toBe(true);
    expect(completion.values.length).toBeLessThanOrEqual(100);
  });

  context.test(
    "completes a template variable with values that fit the prefix",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      const { completion } = await client.complete({
        ref: { type: "ref/resource", uri: FIXTURE_TEMPLATE },
        argument: { name: "id", value: "4" },
      });
      expect(completion.values.length).toBeGreaterThan(0);
      for (const value of completion.values) expect(value.startsWith("4")).toBe(true);
    },
  );
}
