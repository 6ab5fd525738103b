import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef";
// A name that differs from alice's only in case: a binding weaker than the exact name would mix them.
const ALICE_CASED = "alice-cased-token-0123456789abcdef";

let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry() },
    auth: {
      tokens: [
        { name: "alice", token: ALICE },
        { name: "bob", token: BOB },
        { name: "Alice", token: ALICE_CASED },
      ],
    },
    limits: { maxSessions: 1 },
  });
});
afterAll(() => proxy.stop());

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

let nextId = 0;

/** A modern (2026-07-28) POST: no session, the version, method and name in headers. */
async function modernPost(
  method: string,
  params: Record<string, unknown>,
  options: { token?: string; headers?: Record<string, string>; url?: URL } = {},
) {
  nextId += 1;
  const name = params.name ?? params.uri;
  const response = await fetch(options.url ?? proxy.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" ? { "mcp-name": name } : {}),
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId,
      method,
      params: { ...params, _meta: META },
    }),
  });
  const text = await response.text();
  const body = (text.startsWith("{") ? JSON.parse(text) : undefined) as
    | { result?: Record<string, unknown>; error?: { code: number; message: string } }
    | undefined;
  return { status: response.status, headers: response.headers, body };
}

describe("the proxy's modern (2026-07-28) requests beside legacy sessions", () => {
  it("serves a modern POST with no session while a legacy session holds the only session slot", async () => {
    const legacy = await connectSdk(proxy.url, { token: ALICE });
    try {
      const modern = await modernPost("tools/list", {}, { token: ALICE });
      expect(modern.status).toBe(200);
      expect(modern.headers.get("mcp-session-id")).toBeNull();
      expect(modern.body?.result).toMatchObject({ resultType: "complete", ttlMs: 0 });
      const tools = (modern.body?.result?.tools ?? []) as { name: string }[];
      const names = tools.map((tool) => tool.name);
      expect(names).toContain("sample__echo");
      const logged = proxy.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toContainEqual(
        expect.objectContaining({
          kind: "rpc",
          method: "tools/list",
          status: "ok",
          client: "alice",
        }),
      );
      const legacyTools = await legacy.client.listTools();
      expect(legacyTools.tools.map((tool) => tool.name)).toEqual(names);
    } finally {
      await closeSdk(legacy);
    }
  });

  it("refuses a modern POST without a token (401) and one whose Mcp-Method disagrees (-32020)", async () => {
    expect((await modernPost("tools/list", {})).status).toBe(401);
    const mismatch = await modernPost(
      "tools/list",
      {},
      {
        token: ALICE,
        headers: { "mcp-method": "prompts/list" },
      },
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body?.error?.code).toBe(-32020);
  });

  it("keeps a held call to the token it was issued to", async () => {
    const name = "sample__test_input_required_result_elicitation";
    const first = await modernPost("tools/call", { name, arguments: {} }, { token: ALICE });
    expect(first.body?.result?.resultType).toBe("input_required");
    const key = Object.keys(first.body?.result?.inputRequests as object)[0] as string;
    const retry = {
      name,
      arguments: {},
      inputResponses: { [key]: { action: "accept", content: { name: "Alice" } } },
      requestState: first.body?.result?.requestState,
    };
    const stolen = await modernPost("tools/call", retry, { token: BOB });
    expect(stolen.body?.error?.code).toBe(-32602);
    const cased = await modernPost("tools/call", retry, { token: ALICE_CASED });
    expect(cased.body?.error?.code).toBe(-32602);
    const own = await modernPost("tools/call", retry, { token: ALICE });
    expect(own.body?.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Hello, Alice!" }],
    });
  });
});

describe("the identity a held call is bound to", () => {
  it("is one token: a config with two tokens of one name does not start", async () => {
    const twice = startTestProxy({
      mcpServers: { sample: sampleEntry() },
      auth: {
        tokens: [
          { name: "alice", token: ALICE },
          { name: "alice", token: BOB },
        ],
      },
    });
    await expect(twice).rejects.toThrow(
      'auth.tokens[1].name: another token is already named "alice"',
    );
  });
});

describe("the proxy's limits on modern requests", () => {
  it("fails a modern result over limits.maxResultBytes with -32012, as on sessions", async () => {
    const small = await startTestProxy({
      mcpServers: { sample: sampleEntry() },
      limits: { maxResultBytes: 256 },
    });
    try {
      const answer = await modernPost("tools/list", {}, { url: small.url });
      expect(answer.body?.error).toMatchObject({
        code: -32012,
        message: expect.stringMatching(/maxResultBytes/),
      });
    } finally {
      await small.stop();
    }
  });
});
