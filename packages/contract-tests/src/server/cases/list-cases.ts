import { expect } from "vitest";
import { rejectionOf } from "../contract-helpers.js";
import {
  FIXTURE_PROMPTS,
  FIXTURE_RESOURCES,
  FIXTURE_TEMPLATE,
  FIXTURE_TOOLS,
} from "../fixture-names.js";
import { ALWAYS, type ServerContractContext } from "../server-contract-context.js";

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const LIST_METHODS = [
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "prompts/list",
] as const;

/** MCP "Pagination" and the four list methods. */
export function defineListCases(context: ServerContractContext): void {
  context.test(
    "tools/list has every fixture tool with a valid name and an object input schema",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining([...FIXTURE_TOOLS]));
      for (const tool of tools) {
        expect(tool.name).toMatch(TOOL_NAME);
        expect(tool.inputSchema.type).toBe("object");
      }
    },
  );

  context.test(
    "resources/list, resources/templates/list and prompts/list have the fixtures",
    ALWAYS,
    async () => {
      const client = await context.connectClient();
      const resources = await client.listAllResources();
      expect(resources.map((resource) => resource.uri)).toEqual(
        expect.arrayContaining([...FIXTURE_RESOURCES]),
      );
      const templates = await client.listAllResourceTemplates();
      expect(templates.map((template) => template.uriTemplate)).toContain(FIXTURE_TEMPLATE);
      const prompts = await client.listAllPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(
        expect.arrayContaining([...FIXTURE_PROMPTS]),
      );
    },
  );

  context.test("following nextCursor visits every tool exactly once and ends", ALWAYS, async () => {
    const client = await context.connectClient();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(1000);
    } while (cursor !== undefined);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([...FIXTURE_TOOLS]));
  });

  for (const method of LIST_METHODS) {
    context.test(`${method} answers an invalid cursor with -32602`, ALWAYS, async () => {
      const client = await context.connectClient();
      const error = await rejectionOf(client.request(method, { cursor: "not-a-cursor-we-made" }));
      expect(error.code).toBe(-32602);
    });
  }
}
