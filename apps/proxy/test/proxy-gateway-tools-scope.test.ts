import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const MEMBER = "member-token-0123456789abcdef";
const PEER = "peer-token-0123456789abcdef";
const ADMIN = "admin-token-0123456789abcdef";

type Connected = Awaited<ReturnType<typeof connectSdk>>;
interface Event {
  event_type: string;
  backend?: string;
  tool?: string;
  data: Record<string, unknown>;
}

let proxy: TestProxy;
const open: Connected[] = [];
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: {
      sample: sampleEntry(),
      hidden: sampleEntry(),
    },
    profiles: { team: { servers: ["sample"] }, elsewhere: { servers: ["hidden"] } },
    auth: {
      tokens: [
        { name: "member", token: MEMBER, profiles: ["team"] },
        { name: "peer", token: PEER, profiles: ["team"] },
        { name: "admin", token: ADMIN, operator: true },
      ],
    },
  });
});
afterAll(async () => {
  for (const connected of open.splice(0)) await closeSdk(connected);
  await proxy.stop();
});

async function connect(token: string, path: string): Promise<Connected> {
  const connected = await connectSdk(proxy.at(path), { token });
  open.push(connected);
  return connected;
}

async function status(connected: Connected): Promise<Record<string, unknown>> {
  const result = await connected.client.callTool({ name: "gateway_status", arguments: {} });
  return result.structuredContent as Record<string, unknown>;
}

async function events(connected: Connected): Promise<Event[]> {
  const result = await connected.client.callTool({
    name: "get_events",
    arguments: { limit: 1000 },
  });
  const content = result.content as { text: string }[];
  return JSON.parse(content[0]?.text ?? "[]") as Event[];
}

describe("gateway_status and get_events", () => {
  it("show a token only its profile's backends, its own sessions and its own calls", async () => {
    const peer = await connect(PEER, "/mcp/team");
    await peer.client.callTool({ name: "sample__add", arguments: { a: 1, b: 2 } });
    const member = await connect(MEMBER, "/mcp/team");
    await member.client.callTool({ name: "sample__echo", arguments: { message: "mine" } });

    const seen = await status(member);
    const gateway = seen.gateway as { sessions: number; config: Record<string, unknown> };
    expect(gateway.sessions).toBe(1);
    expect(Object.keys(gateway.config.mcpServers as object)).toEqual(["sample"]);
    expect(Object.keys(gateway.config.profiles as object)).toEqual(["team"]);
    expect(Object.keys(seen.backends as object)).toEqual(["sample"]);
    const text = JSON.stringify(seen);
    expect(text).not.toContain("hidden");
    expect(text).not.toContain("elsewhere");

    const list = await events(member);
    const calls = list.filter((event) => event.event_type === "tool.called");
    // Its own calls (the status it just asked for among them), none of the peer's.
    expect(calls.map((event) => event.tool).sort()).toEqual(["gateway_status", "sample__echo"]);
    expect(JSON.stringify(list)).not.toContain("hidden");
    const sessions = new Set(list.flatMap((event) => event.data.session ?? []));
    expect(sessions.size).toBe(1);
    for (const event of list) {
      if (event.data.session === undefined) {
        expect([event.event_type.startsWith("backend."), event.backend]).toEqual([true, "sample"]);
      }
    }
  }, 30_000);

  it("are scoped the same for a modern (2026-07-28) request, which has no session", async () => {
    const response = await fetch(proxy.at("/mcp/team"), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${MEMBER}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "gateway_status",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "gateway_status",
          arguments: {},
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    const body = (await response.json()) as {
      result: { structuredContent: { gateway: { config: Record<string, unknown> } } };
    };
    const config = body.result.structuredContent.gateway.config;
    expect(Object.keys(config.mcpServers as object)).toEqual(["sample"]);
    expect(JSON.stringify(body)).not.toContain("hidden");
  }, 30_000);

  it("show an operator's token every backend, profile, session and call", async () => {
    const admin = await connect(ADMIN, "/mcp");
    const seen = await status(admin);
    const gateway = seen.gateway as { sessions: number; config: Record<string, unknown> };
    // peer, member, member's modern caller and the admin's own.
    expect(gateway.sessions).toBe(4);
    expect(Object.keys(gateway.config.mcpServers as object).sort()).toEqual(["hidden", "sample"]);
    expect(Object.keys(gateway.config.profiles as object).sort()).toEqual(["elsewhere", "team"]);

    const tools = (await events(admin))
      .filter((event) => event.event_type === "tool.called")
      .map((event) => event.tool);
    expect(tools).toEqual(expect.arrayContaining(["sample__add", "sample__echo"]));
  }, 30_000);
});
