import { expect } from "vitest";
import { rejectionOf, textOf } from "../contract-helpers.js";
import { TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from "../fixture-names.js";
import { ALWAYS, type ServerContractContext } from "../server-contract-context.js";

/** MCP "Tools": content types, structured output, validation and errors. */
export function defineToolCases(context: ServerContractContext): void {
  context.test("text content", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "test_simple_text" });
    expect(result.content).toEqual([
      { type: "text", text: "This is a simple text response for testing." },
    ]);
  });

  context.test("image content", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "test_image_content" });
    expect(result.content).toEqual([
      { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
    ]);
  });

  context.test("audio content", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "test_audio_content" });
    expect(result.content).toEqual([
      { type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" },
    ]);
  });

  context.test("embedded resource content", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "test_embedded_resource" });
    expect(result.content).toEqual([
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ]);
  });

  context.test("several content types in one result", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "test_multiple_content_types" });
    expect(result.content.map((block) => block.type)).toEqual(["text", "image", "resource"]);
  });

  context.test("resource link content", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "get_resource_link" });
    expect(result.content).toContainEqual(
      expect.objectContaining({
        type: "resource_link",
        uri: "test://static-text",
        name: expect.any(String),
      }),
    );
  });

  context.test(
    "structured output matches the declared output schema, with its JSON as text",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      const tools = await client.listAllTools();
      expect(tools.find((tool) => tool.name === "add")?.outputSchema).toMatchObject({
        type: "object",
      });
      const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      expect(result.structuredContent).toEqual({ sum: 42 });
      expect(JSON.parse(textOf(result))).toEqual({ sum: 42 });
    },
  );

  context.test(
    "invalid arguments give an isError result, not a protocol error",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      const result = await client.callTool({ name: "add", arguments: { a: "two", b: 40 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).not.toBe("");
    },
  );

  context.test("an unknown tool is a -32602 protocol error", ALWAYS, async () => {
    const client = await context.connectClient();
    const error = await rejectionOf(client.callTool({ name: "no_such_tool_anywhere" }));
    expect(error.code).toBe(-32602);
  });

  context.test("a failing tool gives an isError result carrying its message", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.callTool({ name: "test_error_handling" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("This tool intentionally returns an error for testing");
  });
}
