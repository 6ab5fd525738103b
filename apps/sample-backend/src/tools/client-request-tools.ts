import type { Server } from "@patchbay/server";
import { z } from "zod";

/** Tools that ask the client: sampling, elicitation (conformance fixtures) and roots. */
export function registerClientRequestTools(server: Server): void {
  server.registerTool(
    "test_sampling",
    {
      description: "Tests server-initiated sampling (LLM completion request)",
      inputSchema: z.object({ prompt: z.string().describe("The prompt to send to the LLM") }),
    },
    async ({ prompt }, context) => {
      const result = await context.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      const text = (content as { text?: unknown } | undefined)?.text;
      const reply = typeof text === "string" ? text : "No response";
      return { content: [{ type: "text", text: `LLM response: ${reply}` }] };
    },
  );
  server.registerTool(
    "test_elicitation",
    {
      description: "Tests server-initiated elicitation (user input request)",
      inputSchema: z.object({ message: z.string().describe("The message to show the user") }),
    },
    async ({ message }, context) => {
      const result = await context.elicit({
        mode: "form",
        message,
        // The schema the official conformance suite specifies for this fixture (its client
        // answers with a username and an email, and answers are checked against this schema).
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      const text = `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      return { content: [{ type: "text", text }] };
    },
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Tests elicitation with default values per SEP-1034" },
    async (_args, context) => {
      const result = await context.elicit({
        mode: "form",
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      });
      return { content: [{ type: "text", text: completed(result) }] };
    },
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Tests elicitation with enum schema improvements per SEP-1330" },
    async (_args, context) => {
      const titled = (prefix: string) =>
        ["First", "Second", "Third"].map((word, index) => ({
          const: `value${index + 1}`,
          title: `${word} ${prefix}`,
        }));
      const result = await context.elicit({
        mode: "form",
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: {
              type: "string",
              description: "Select one option",
              enum: ["option1", "option2", "option3"],
            },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: titled("Option"),
            },
            legacyEnum: {
              type: "string",
              description: "Select one option (legacy)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Select multiple options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: { anyOf: titled("Choice") },
            },
          },
          required: [],
        },
      });
      return { content: [{ type: "text", text: completed(result) }] };
    },
  );
  server.registerTool(
    "list_roots",
    { description: "Asks the client for its roots and lists them" },
    async (_args, context) => {
      const { roots } = await context.listRoots();
      const lines = roots.map((root) =>
        root.name === undefined ? root.uri : `${root.name}: ${root.uri}`,
      );
      return {
        content: [{ type: "text", text: lines.length === 0 ? "No roots" : lines.join("\n") }],
      };
    },
  );
}

function completed(result: { action: string; content?: unknown }): string {
  return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}
