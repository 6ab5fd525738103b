import { expect } from "vitest";
import { rejectionOf } from "../contract-helpers.js";
import { TEST_IMAGE_BASE64 } from "../fixture-names.js";
import { ALWAYS, type ServerContractContext } from "../server-contract-context.js";

/** MCP "Resources": reads, templates and errors. */
export function defineResourceCases(context: ServerContractContext): void {
  context.test("reads a static text resource", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.readResource({ uri: "test://static-text" });
    expect(result.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
  });

  context.test("reads a static binary resource as a base64 blob", ALWAYS, async () => {
    const client = await context.connectClient();
    const result = await client.readResource({ uri: "test://static-binary" });
    expect(result.contents).toEqual([
      { uri: "test://static-binary", mimeType: "image/png", blob: TEST_IMAGE_BASE64 },
    ]);
  });

  context.test(
    "reads through a resource template with its variable filled in",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      const result = await client.readResource({ uri: "test://template/42/data" });
      const [contents] = result.contents;
      expect(contents).toMatchObject({
        uri: "test://template/42/data",
        mimeType: "application/json",
      });
      expect(JSON.parse((contents as { text: string }).text)).toEqual({
        id: "42",
        templateTest: true,
        data: "Data for ID: 42",
      });
    },
  );

  context.test("an unknown resource is -32002 (legacy revisions)", ALWAYS, async () => {
    const client = await context.connectClient();
    const error = await rejectionOf(client.readResource({ uri: "test://no-such-resource" }));
    expect(error.code).toBe(-32002);
  });

  context.test("subscribe and unsubscribe are answered", ALWAYS, async () => {
    const client = await context.connectClient();
    await expect(client.subscribeResource("test://watched-resource")).resolves.toBeUndefined();
    await expect(client.unsubscribeResource("test://watched-resource")).resolves.toBeUndefined();
  });
}
