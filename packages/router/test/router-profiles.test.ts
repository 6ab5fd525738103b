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

  it("shows a client that is not the operator only its profile, its backends and its owner's events", async () => {
    const scoped = { ...file, profiles: { ...file.profiles, team: { backends: ["files"] } } };
    harness = await createHarness(scoped, definitions);
    const viewer = (owner: string) => ({ profile: "team", viewer: { operator: false, owner } });
    const other = await harness.connectClient({}, viewer("other"));
    await other.callTool({ name: "files__write_file" });
    const client = await harness.connectClient({}, viewer("member"));
    await client.callTool({ name: "files__read_file" });

    const status = (await client.callTool({ name: "gateway_status" })).structuredContent as {
      gateway: { sessions: number; config: Record<string, Record<string, unknown>> };
      backends: Record<string, unknown>;
    };
    expect(status.gateway.sessions).toBe(1);
    expect(Object.keys(status.gateway.config.mcpServers ?? {})).toEqual(["files"]);
    expect(Object.keys(status.gateway.config.profiles ?? {})).toEqual(["team"]);
    expect(status.gateway.config.telemetry).toBeUndefined();
    expect(Object.keys(status.backends)).toEqual(["files"]);
    expect(JSON.stringify(status)).not.toContain("github");

    const listed = await client.callTool({ name: "get_events", arguments: { limit: 500 } });
    const events = JSON.parse((listed.content as { text: string }[])[0]?.text ?? "") as {
      event_type: string;
      tool?: string;
    }[];
    const calls = events.filter((event) => event.event_type === "tool.called");
    expect(calls.map((event) => event.tool).sort()).toEqual(["files__read_file", "gateway_status"]);
    expect(JSON.stringify(events)).not.toContain("github");
    const limited = await client.callTool({ name: "get_events", arguments: { limit: 1 } });
    expect(JSON.parse((limited.content as { text: string }[])[0]?.text ?? "")).toHaveLength(1);

    // The operator (the harness's own client: `router.serve` without a viewer) sees everything.
    const all = (await harness.client.callTool({ name: "gateway_status" })).structuredContent as {
      gateway: { sessions: number; config: Record<string, Record<string, unknown>> };
    };
    expect(all.gateway.sessions).toBe(3);
    expect(Object.keys(all.gateway.config.mcpServers ?? {})).toEqual(["github", "files"]);
  });
});
