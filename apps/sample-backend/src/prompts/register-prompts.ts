import type { Server } from "@patchbay/server";
import { TEST_IMAGE_BASE64 } from "../fixtures.js";

const LANGUAGES = ["go", "javascript", "python", "rust", "typescript"];

/** Prompts with and without arguments, with embedded resources, images and completions. */
export function registerPrompts(server: Server): void {
  server.registerPrompt(
    "test_simple_prompt",
    { title: "Simple Test Prompt", description: "A simple prompt without arguments" },
    () => ({
      messages: [
        { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: [
        {
          name: "arg1",
          description: "First test argument",
          required: true,
          complete: (value) => ["alpha", "beta", "gamma"].filter((word) => word.startsWith(value)),
        },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    },
    ({ arg1, arg2 }) => ({
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: [
        { name: "resourceUri", description: "URI of the resource to embed", required: true },
      ],
    },
    ({ resourceUri = "test://static-text" }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: resourceUri,
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        {
          role: "user",
          content: { type: "text", text: "Please process the embedded resource above." },
        },
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_image",
    { title: "Prompt With Image", description: "A prompt that includes image content" },
    () => ({
      messages: [
        {
          role: "user",
          content: { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
        },
        { role: "user", content: { type: "text", text: "Please analyze the image above." } },
      ],
    }),
  );
  server.registerPrompt(
    "code_review",
    {
      title: "Code review",
      description: "Asks the model to review code in a given language",
      arguments: [
        {
          name: "language",
          description: "Programming language",
          required: true,
          complete: (value) => LANGUAGES.filter((language) => language.startsWith(value)),
        },
        { name: "code", description: "The code to review", required: true },
      ],
    },
    ({ language, code }) => ({
      description: `Review of ${language} code`,
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Please review this ${language} code:\n\n${code}` },
        },
      ],
    }),
  );
}
