import { Validator } from "@cfworker/json-schema";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMemoryTransportPair, toSdkTransport } from "@patchbay/jsonrpc-core";
import { createCfWorkerValidator } from "@patchbay/mcp-types";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Client,
  type ClientOptions,
  createClient,
  InvalidToolOutputError,
} from "../src/index.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const outputSchema = {
  type: "object" as const,
  properties: { sum: { type: "number" } },
  required: ["sum"],
};

/** The official SDK's low-level Server, which returns whatever these handlers say, unchecked. */
async function connectToSdkServer(structuredContent: unknown, options: ClientOptions = {}) {
  const server = new Server({ name: "sdk", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: "sum", inputSchema: { type: "object" }, outputSchema },
      { name: "plain", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: "text", text: "done" }],
    ...(structuredContent === undefined ? {} : { structuredContent }),
  }));
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(toSdkTransport(serverSide));
  client = createClient({ name: "test", version: "1.0.0" }, options);
  await client.connect(clientSide);
  return { server, client };
}

describe("structured content checked against the tool's outputSchema", () => {
  it("is returned when it matches", async () => {
    const { client } = await connectToSdkServer({ sum: 3 });
    await client.listAllTools();
    expect((await client.callTool({ name: "sum" })).structuredContent).toEqual({ sum: 3 });
  });

  it("is refused with an InvalidToolOutputError when it breaks the schema (ajv by default)", async () => {
    const { client } = await connectToSdkServer({ sum: "three" });
    await client.listTools();
    const error = await client.callTool({ name: "sum" }).catch((caught: unknown) => caught);
    expect(InvalidToolOutputError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "INVALID_TOOL_OUTPUT",
      tool: "sum",
      message: "Tool sum returned invalid structured content: /sum: must be number",
    });
  });

  it("is refused when a tool with an output schema returns none", async () => {
    const { client } = await connectToSdkServer(undefined);
    await client.listAllTools();
    await expect(client.callTool({ name: "sum" })).rejects.toThrow(
      "Tool sum returned invalid structured content: the tool has an output schema but returned none",
    );
    expect((await client.callTool({ name: "plain" })).content).toHaveLength(1);
  });

  it("is checked with the validator given in the options (@cfworker/json-schema)", async () => {
    const { client } = await connectToSdkServer(
      { sum: "three" },
      { jsonSchemaValidator: createCfWorkerValidator(Validator) },
    );
    await client.listAllTools();
    await expect(client.callTool({ name: "sum" })).rejects.toThrow(
      /^Tool sum returned invalid structured content: \/sum: Instance type "string" is invalid/,
    );
  });

  it("is not checked for a tool the client has not listed", async () => {
    const { client } = await connectToSdkServer({ sum: "three" });
    expect((await client.callTool({ name: "sum" })).structuredContent).toEqual({ sum: "three" });
  });
});

describe("elicitation answers checked against the requested schema", () => {
  const requestedSchema = {
    type: "object" as const,
    properties: { age: { type: "integer" as const } },
    required: ["age"],
  };

  it("are refused before they reach the server when they break it", async () => {
    const { server } = await connectToSdkServer(undefined, {
      elicitation: async () => ({ action: "accept", content: { age: "old" } }),
    });
    const error = await server
      .elicitInput({ message: "How old are you?", requestedSchema })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toContain(
      "The elicitation answer does not match the requested schema: /age: must be integer",
    );
  });

  it("are sent when they match", async () => {
    const { server } = await connectToSdkServer(undefined, {
      elicitation: async () => ({ action: "accept", content: { age: 42 } }),
    });
    const answer = await server.elicitInput({ message: "How old are you?", requestedSchema });
    expect(answer).toEqual({ action: "accept", content: { age: 42 } });
  });
});
