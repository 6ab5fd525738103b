import { Validator } from "@cfworker/json-schema";
import {
  createCfWorkerValidator,
  type JsonSchemaValidator,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectClient, firstText, rejectionOf } from "./harness.js";

const numberInput = {
  type: "object" as const,
  properties: { n: { type: "number" } },
  required: ["n"],
};

/** A client-side validator that accepts anything, to hand the server answers it must refuse. */
const acceptEverything: JsonSchemaValidator = { compile: () => () => ({ valid: true }) };

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function serverWithDoubler(jsonSchemaValidator?: JsonSchemaValidator): Server {
  const created = createServer({
    name: "s",
    version: "1",
    ...(jsonSchemaValidator && { jsonSchemaValidator }),
  });
  created.registerTool("double", { inputSchema: numberInput }, (args) => ({
    content: [{ type: "text", text: String((args.n as number) * 2) }],
  }));
  return created;
}

describe("tools declared with a plain JSON Schema", () => {
  it("refuses arguments that break the schema, with the default validator (ajv)", async () => {
    server = serverWithDoubler();
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "double", arguments: { n: "not a number" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe("Invalid arguments for tool double: /n: must be number");
    expect(firstText(await client.callTool({ name: "double", arguments: { n: 21 } }))).toBe("42");
  });

  it("names a missing required property", async () => {
    server = serverWithDoubler();
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "double", arguments: {} });
    expect(firstText(result)).toMatch(/must have required property 'n'/);
  });

  it("checks with the validator given in the options (@cfworker/json-schema)", async () => {
    server = serverWithDoubler(createCfWorkerValidator(Validator));
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "double", arguments: { n: "not a number" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(
      /^Invalid arguments for tool double: \/n: Instance type "string" is invalid/,
    );
    expect(firstText(await client.callTool({ name: "double", arguments: { n: 2 } }))).toBe("4");
  });

  it("checks structured content against a plain JSON Schema output", async () => {
    server = createServer({ name: "s", version: "1" });
    const outputSchema = { type: "object" as const, properties: { sum: { type: "number" } } };
    server.registerTool("bad_sum", { outputSchema }, () => ({
      content: [],
      structuredContent: { sum: "three" },
    }));
    const { client } = await connectClient(server, { jsonSchemaValidator: acceptEverything });
    const result = await client.callTool({ name: "bad_sum" });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe(
      "Tool bad_sum returned invalid structured content: /sum: must be number",
    );
  });

  it("reports a schema the validator cannot compile as the tool's error", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "broken",
      { inputSchema: { type: "object", properties: { a: { type: "no-such-type" } } } },
      () => ({
        content: [],
      }),
    );
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "broken", arguments: { a: 1 } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(
      /^Invalid arguments for tool broken: the schema cannot be compiled: /,
    );
  });
});

describe("elicitation answers", () => {
  const requestedSchema = {
    type: "object" as const,
    properties: { age: { type: "integer" as const } },
    required: ["age"],
  };

  function serverThatAsksAge(): Server {
    const created = createServer({ name: "s", version: "1" });
    created.registerTool("ask_age", {}, async (_args, context) => {
      const answer = await context.elicit({ message: "How old are you?", requestedSchema });
      return { content: [{ type: "text", text: JSON.stringify(answer.content) }] };
    });
    return created;
  }

  it("are refused when an accepted answer breaks the requested schema", async () => {
    server = serverThatAsksAge();
    const { client } = await connectClient(server, {
      jsonSchemaValidator: acceptEverything,
      elicitation: async () => ({ action: "accept", content: { age: "old" } }),
    });
    const error = await rejectionOf(client.callTool({ name: "ask_age" }));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      "The elicitation answer does not match the requested schema: /age: must be integer",
    );
  });

  it("reach the tool when they match", async () => {
    server = serverThatAsksAge();
    const { client } = await connectClient(server, {
      elicitation: async () => ({ action: "accept", content: { age: 42 } }),
    });
    const result = (await client.callTool({ name: "ask_age" })) as v2025_11_25.CallToolResult;
    expect(firstText(result)).toBe('{"age":42}');
  });
});
