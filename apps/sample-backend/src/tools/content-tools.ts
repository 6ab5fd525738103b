import type { Server } from "@patchbay/server";
import { z } from "zod";
import { TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from "../fixtures.js";

/**
 * Tools that return each kind of content block: text, image, audio, embedded resource, resource
 * link, and a mix. The `test_*` names and contents are the MCP conformance suite's fixtures.
 */
export function registerContentTools(server: Server): void {
  server.registerTool(
    "echo",
    {
      title: "Echo",
      description: "Returns the message it is given",
      inputSchema: z.object({ message: z.string().describe("Text to send back") }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  server.registerTool(
    "test_simple_text",
    { description: "Tests simple text content response" },
    () => ({ content: [{ type: "text", text: "This is a simple text response for testing." }] }),
  );
  server.registerTool(
    "test_image_content",
    { description: "Tests image content response" },
    () => ({ content: [{ type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" }] }),
  );
  server.registerTool(
    "test_audio_content",
    { description: "Tests audio content response" },
    () => ({ content: [{ type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" }] }),
  );
  server.registerTool(
    "test_embedded_resource",
    { description: "Tests embedded resource content response" },
    () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_multiple_content_types",
    { description: "Tests response with multiple content types (text, image, resource)" },
    () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool(
    "get_resource_link",
    {
      title: "Resource link",
      description: "Returns a link to the static text resource instead of its contents",
      annotations: { readOnlyHint: true },
    },
    () => ({
      content: [
        { type: "text", text: "The static text resource:" },
        {
          type: "resource_link",
          uri: "test://static-text",
          name: "static-text",
          mimeType: "text/plain",
          description: "A static text resource for testing",
        },
      ],
    }),
  );
}
