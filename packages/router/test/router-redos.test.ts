import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// Templates and globs that a backtracking regular expression takes seconds to minutes to reject.
const hostileTemplate = "x://{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}!";
const hostileGlob = "*a*a*a*a*a*az";

describe("router: matching that peers cannot make slow", () => {
  it("answers a resources/read of a long unmatched URI against a hostile template", async () => {
    harness = await createHarness(
      { mcpServers: { docs: { command: "x" } } },
      {
        docs: (server) =>
          server.registerResourceTemplate("hostile", hostileTemplate, {}, async (uri) => ({
            contents: [{ uri, text: "matched" }],
          })),
      },
    );
    const unmatched = `x://${"a".repeat(40)}`;
    const error = await harness.client.readResource({ uri: unmatched }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(JSONRPCError.isInstance(error)).toBe(true);
    const matched = await harness.client.readResource({ uri: `${unmatched}!` });
    expect(matched.contents).toEqual([{ uri: `${unmatched}!`, text: "matched" }]);
  });

  it("filters 128-character tool names through a hostile allow glob", async () => {
    const unmatched = "a".repeat(128);
    const matched = `${"a".repeat(127)}z`;
    harness = await createHarness(
      { mcpServers: { t: { command: "x", tools: { allow: [hostileGlob, "ok"] } } } },
      {
        t: (server) => {
          for (const name of [unmatched, matched, "ok"]) {
            server.registerTool(name, {}, async () => ({ content: [] }));
          }
        },
      },
    );
    const names = (await harness.client.listTools()).tools.map((tool) => tool.name);
    // Long names are shortened for clients; the status counts what the filter let through.
    expect(names.filter((name) => name.startsWith("t__"))).toHaveLength(2);
    expect(names).toContain("t__ok");
    const call = await harness.client.callTool({ name: "t__ok" });
    expect(call.isError).toBeUndefined();
  });
});
