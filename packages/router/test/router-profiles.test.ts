import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { UnknownProfileError } from "../src/router/unknown-profile-error.js";
import { createHarness, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const tools =
  (...names: string[]) =>
  (server: Server) => {
    for (const name of names) server.registerTool(name, {}, async () => ({ content: [] }));
  };

const file = {
  mcpServers: { github: { command: "x" }, files: { command: "y" } },
  profiles: {
    readonly: { backends: ["files"], tools: { allow: ["files__read_*"] } },
    dev: { tools: { deny: ["*__delete_*", "get_events"] } },
  },
};
const definitions = {
  github: tools("create_issue", "delete_repo"),
  files: tools("read_file", "write_file"),
};

describe("router: profiles", () => {
  it("shows a profile's client only the profile's backends and tools", async () => {
    harness = await createHarness(file, definitions);
    const client = await harness.connectClient({}, { profile: "readonly" });
    const names = (await client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(["files__read_file"]);
    await expect(client.callTool({ name: "files__write_file" })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.callTool({ name: "github__create_issue" })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.callTool({ name: "gateway_status" })).rejects.toMatchObject({
      code: -32602,
    });
    await client.close();
  });

  it("applies deny globs to exposed names, the gateway's own tools included", async () => {
    harness = await createHarness(file, definitions);
    const client = await harness.connectClient({}, { profile: "dev" });
    const names = (await client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual([
      "gateway_status",
      "github__create_issue",
      "files__read_file",
      "files__write_file",
    ]);
    const status = (await client.callTool({ name: "gateway_status" })).structuredContent as {
      backends: Record<string, unknown>;
    };
    expect(Object.keys(status.backends)).toEqual(["github", "files"]);
    await client.close();
  });

  it("leaves a client without a profile everything", async () => {
    harness = await createHarness(file, definitions);
    expect(await harness.client.listAllTools()).toHaveLength(6);
  });

  it("refuses an unknown profile", async () => {
    harness = await createHarness(file, definitions);
    const [, gatewaySide] = createMemoryTransportPair();
    await expect(harness.router.serve(gatewaySide, { profile: "nope" })).rejects.toBeInstanceOf(
      UnknownProfileError,
    );
  });
});
