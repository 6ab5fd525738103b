import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { expect, it } from "vitest";
import { connect } from "../examples/connection-hooks.js";
import { main as descriptorExample } from "../examples/method-descriptor.js";
import { main as negotiationExample } from "../examples/negotiation.js";
import { main as toolSchemaExample } from "../examples/tool-schema.js";
import { main as validateExample } from "../examples/validate-message.js";

it("the README validation example prints what the README says", () => {
  expect(validateExample()).toEqual([
    "request ok",
    "result.content[0].text: Invalid input: expected string, received undefined",
    "get_weather keeps x-vendor: true",
  ]);
});

it("the README descriptor example calls a tool through jsonrpc-core", async () => {
  expect(await descriptorExample()).toBe('created "Bug"; created "Again"');
});

it("the README tool schema example produces 2020-12 object schemas", () => {
  const { inputSchema, noArguments, nameProblem } = toolSchemaExample();
  expect(inputSchema).toEqual({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { title: { type: "string", description: "Issue title" }, body: { type: "string" } },
    required: ["title"],
  });
  expect(noArguments).toEqual({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {},
    additionalProperties: false,
  });
  expect(nameProblem).toBe(
    'Tool name "github:create_issue" contains ":"; only A-Z, a-z, 0-9, "_", "." and "-" are allowed',
  );
});

it("the README negotiation example answers as the README says", () => {
  expect(negotiationExample()).toEqual({
    echoed: "2024-11-05",
    fallback: "2025-11-25",
    modern: {
      ok: false,
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2027-01-01",
        data: { supported: ["2026-07-28"], requested: "2027-01-01" },
      },
    },
    era: "legacy",
  });
});

it("the README connection-hooks example builds a working connection", async () => {
  const [clientTransport, serverTransport] = createMemoryTransportPair();
  const client = connect(clientTransport);
  const server = connect(serverTransport);
  server.handle("ping", () => ({}));
  await Promise.all([client.start(), server.start()]);
  expect(await client.request("ping")).toEqual({});
  await Promise.all([client.close(), server.close()]);
});
