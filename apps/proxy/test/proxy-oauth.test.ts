import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  startAuthorizationServer,
  TEST_CLIENT,
  type TestAuthorizationServer,
} from "../../../packages/http-gateway/src/test-support/authorization-server.js";
import { type EchoUpstream, startEchoUpstream } from "./oauth-upstream.js";
import {
  closeSdk,
  connectSdk,
  freePort,
  readSseEndpoint,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const STATIC = "static-ops-token-0123456789abcdef";

let authorizationServer: TestAuthorizationServer;
let proxy: TestProxy;
let publicUrl: string;
/** A remote backend over Streamable HTTP, which keeps the `Authorization` of every request. */
let remote: EchoUpstream;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  remote = await startEchoUpstream();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  proxy = await startTestProxy(
    {
      mcpServers: {
        sample: sampleEntry(),
        other: {
          url: remote.url,
          transport: "http",
          headers: { Authorization: "Bearer backend-own-secret" },
        },
      },
      profiles: { team: { servers: ["sample"] } },
      auth: {
        tokens: [{ name: "ops", token: STATIC }],
        oauth: {
          issuer: authorizationServer.issuer,
          publicUrl,
          scopes: { "mcp:all": ["*"], "mcp:team": ["team"] },
        },
      },
    },
    { port },
  );
}, 30_000);

afterAll(async () => {
  await proxy?.stop();
  await remote?.close();
  await authorizationServer?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "oauth-test", version: "1.0.0" },
  },
});

/** One request of each way in, with `headers` added: its status and `WWW-Authenticate`. */
type Entry = (
  headers: Record<string, string>,
) => Promise<{ status: number; challenge: string | null }>;

function httpEntry(path: string, init: RequestInit): Entry {
  return async (headers) => {
    const response = await fetch(new URL(path, publicUrl), {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...headers },
    });
    await response.body?.cancel();
    return { status: response.status, challenge: response.headers.get("www-authenticate") };
  };
}

const post = (accept: string, extra: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", accept, ...extra },
  body: initialize,
});

/** Every entry kind of the default endpoint (legacy SSE: its stream and its `/messages` POSTs). */
const entries: Record<string, Entry> = {
  "Streamable HTTP": httpEntry("/mcp", post("application/json, text/event-stream")),
  "plain JSON-RPC": httpEntry("/mcp", post("application/json")),
  "modern POST": httpEntry(
    "/mcp",
    post("application/json, text/event-stream", { "mcp-protocol-version": "2026-07-28" }),
  ),
  "legacy SSE stream": httpEntry("/sse", { headers: { accept: "text/event-stream" } }),
  "legacy SSE message": httpEntry("/messages?sessionId=0123", post("application/json")),
  WebSocket: (headers) =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(new URL("/ws", publicUrl.replace(/^http/, "ws")), "mcp", {
        headers,
      });
      socket.on("unexpected-response", (_request, response) => {
        resolve({
          status: response.statusCode ?? 0,
          challenge: (response.headers["www-authenticate"] as string | undefined) ?? null,
        });
        response.resume();
        socket.terminate();
      });
      socket.on("open", () => {
        socket.close();
        resolve({ status: 101, challenge: null });
      });
      socket.on("error", (error) => {
        if (!/Unexpected server response/.test(error.message)) reject(error);
      });
    }),
};

/** The resource metadata URL a 401 of an endpoint points to. */
const metadataOf = (resourcePath: string) =>
  `resource_metadata="${publicUrl}/.well-known/oauth-protected-resource${resourcePath}"`;
const resourcePathOf = (entry: string) =>
  entry.startsWith("legacy") ? "/sse" : entry === "WebSocket" ? "/ws" : "/mcp";

describe("the proxy as an OAuth 2.1 resource server", () => {
  it("publishes Protected Resource Metadata whose resource is each endpoint's URL exactly", async () => {
    const read = async (path: string) => {
      const response = await fetch(
        new URL(`/.well-known/oauth-protected-resource${path}`, publicUrl),
      );
      return [response.status, await response.json()];
    };
    expect(await read("/mcp")).toEqual([
      200,
      {
        resource: `${publicUrl}/mcp`,
        authorization_servers: [authorizationServer.issuer],
        scopes_supported: ["mcp:all"],
        bearer_methods_supported: ["header"],
      },
    ]);
    expect(await read("/mcp/team")).toEqual([
      200,
      {
        resource: `${publicUrl}/mcp/team`,
        authorization_servers: [authorizationServer.issuer],
        scopes_supported: ["mcp:team", "mcp:all"],
        bearer_methods_supported: ["header"],
      },
    ]);
    const [, root] = await read("");
    expect(root).toMatchObject({ resource: publicUrl, scopes_supported: ["mcp:all", "mcp:team"] });
    expect((await read("/elsewhere"))[0]).toBe(404);
  });

  it.each(Object.keys(entries))(
    "%s without a token: 401 pointing to the metadata",
    async (name) => {
      const answer = await (entries[name] as Entry)({});
      expect(answer).toEqual({
        status: 401,
        challenge: `Bearer scope="mcp:all", ${metadataOf(resourcePathOf(name))}`,
      });
    },
  );

  it.each(Object.keys(entries))("%s refuses every token that is not for it", async (name) => {
    const entry = entries[name] as Entry;
    const resource = `${publicUrl}${resourcePathOf(name)}`;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: authorizationServer.issuer,
      sub: "someone",
      aud: resource,
      scope: "mcp:all",
      iat: now,
      exp: now + 600,
    };
    const refused = {
      "another endpoint's audience": await authorizationServer.token(
        `${publicUrl}/mcp/team`,
        "mcp:all",
      ),
      expired: await authorizationServer.forge({
        claims: { ...claims, iat: now - 7200, exp: now - 3600 },
      }),
      "another issuer": await authorizationServer.forge({
        claims: { ...claims, iss: "http://127.0.0.1:9/elsewhere" },
      }),
      "a key the issuer does not publish": await authorizationServer.forge({
        claims,
        foreignKey: true,
      }),
      "alg none": `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`,
      "not a token at all": "not-a-jwt",
    };
    for (const [why, token] of Object.entries(refused)) {
      const answer = await entry(bearer(token));
      expect([why, answer.status]).toEqual([why, 401]);
      expect(answer.challenge).toMatch(/^Bearer error="invalid_token", /);
      expect(answer.challenge).toContain(metadataOf(resourcePathOf(name)));
    }
    // Signed by the issuer for this endpoint, but with a scope that opens another profile only.
    const teamOnly = await authorizationServer.forge({ claims: { ...claims, scope: "mcp:team" } });
    const stepUp = await entry(bearer(teamOnly));
    expect(stepUp.status).toBe(403);
    expect(stepUp.challenge).toMatch(/^Bearer error="insufficient_scope", /);
    expect(stepUp.challenge).toContain('scope="mcp:all"');
  });

  it("admits a valid token on every entry, and a profile's token on the profile", async () => {
    const token = await authorizationServer.token(`${publicUrl}/mcp`, "mcp:all");
    for (const name of ["Streamable HTTP", "plain JSON-RPC"]) {
      expect([name, (await (entries[name] as Entry)(bearer(token))).status]).toEqual([name, 200]);
    }
    const wsToken = await authorizationServer.token(`${publicUrl}/ws`, "mcp:all");
    expect((await (entries.WebSocket as Entry)(bearer(wsToken))).status).toBe(101);

    const team = await authorizationServer.token(`${publicUrl}/mcp/team`, "mcp:team");
    const connected = await connectSdk(new URL("/mcp/team", publicUrl), { token: team });
    try {
      const { tools } = await connected.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("sample__echo");
      expect(tools.map((tool) => tool.name)).not.toContain("other__echo");
      const result = await connected.client.callTool({
        name: "sample__echo",
        arguments: { message: "hi" },
      });
      expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    } finally {
      await closeSdk(connected);
    }
  });

  it("a session belongs to its principal: another principal's token gets 404 for it", async () => {
    const token = await authorizationServer.token(`${publicUrl}/mcp`, "mcp:all");
    const connected = await connectSdk(new URL("/mcp", publicUrl), { token });
    try {
      const sessionId = connected.transport.sessionId as string;
      const now = Math.floor(Date.now() / 1000);
      const stranger = await authorizationServer.forge({
        claims: {
          iss: authorizationServer.issuer,
          sub: "stranger",
          aud: `${publicUrl}/mcp`,
          scope: "mcp:all",
          iat: now,
          exp: now + 600,
        },
      });
      const response = await fetch(new URL("/mcp", publicUrl), {
        method: "POST",
        headers: {
          ...bearer(stranger),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(response.status).toBe(404);
      await response.body?.cancel();
      // The owner goes on.
      expect((await connected.client.listTools()).tools.length).toBeGreaterThan(0);
      const line = await proxy.waitForLog((entry) => entry.includes('"tools/list"'));
      expect(line).toContain(`${authorizationServer.issuer}#${TEST_CLIENT.id}`);
      expect(line).not.toContain(token);
    } finally {
      await closeSdk(connected);
    }
  });

  it("a legacy SSE session belongs to its principal too", async () => {
    const token = await authorizationServer.token(`${publicUrl}/sse`, "mcp:all");
    const stream = await fetch(new URL("/sse", publicUrl), {
      headers: { ...bearer(token), accept: "text/event-stream" },
    });
    expect(stream.status).toBe(200);
    const { reader, endpoint } = await readSseEndpoint(stream);
    const now = Math.floor(Date.now() / 1000);
    const stranger = await authorizationServer.forge({
      claims: {
        iss: authorizationServer.issuer,
        sub: "stranger",
        aud: `${publicUrl}/sse`,
        scope: "mcp:all",
        iat: now,
        exp: now + 600,
      },
    });
    const send = (credential: string) =>
      fetch(new URL(endpoint as string, publicUrl), {
        ...post("application/json"),
        headers: { ...bearer(credential), "content-type": "application/json" },
      });
    const foreign = await send(stranger);
    expect(foreign.status).toBe(404);
    await foreign.body?.cancel();
    const own = await send(token);
    expect(own.status).toBe(202);
    await own.body?.cancel();
    await reader.cancel();
  });

  it("never passes the client's access token to a backend, which gets its own credentials", async () => {
    const token = await authorizationServer.token(`${publicUrl}/mcp`, "mcp:all");
    const connected = await connectSdk(new URL("/mcp", publicUrl), { token });
    try {
      const echoed = await connected.client.callTool({
        name: "other__echo",
        arguments: { message: "remote" },
      });
      expect(echoed.content).toEqual([{ type: "text", text: "remote" }]);
    } finally {
      await closeSdk(connected);
    }
    expect(remote.authorizations.length).toBeGreaterThan(0);
    expect(new Set(remote.authorizations)).toEqual(new Set(["Bearer backend-own-secret"]));
  });

  it("static tokens keep working beside OAuth", async () => {
    const connected = await connectSdk(new URL("/mcp", publicUrl), { token: STATIC });
    try {
      expect((await connected.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await closeSdk(connected);
    }
  });
});

describe("an auth.oauth section that cannot be used stops the start", () => {
  it("names a misspelt key, and an issuer that answers no metadata", async () => {
    const config = (oauth: Record<string, unknown>) => ({
      mcpServers: { sample: sampleEntry() },
      auth: {
        oauth: {
          issuer: authorizationServer.issuer,
          publicUrl,
          scopes: { "mcp:all": ["*"] },
          ...oauth,
        },
      },
    });
    await expect(startTestProxy(config({ audiance: "x" }))).rejects.toThrow(
      "auth.oauth.audiance: unknown key",
    );
    await expect(
      startTestProxy(config({ issuer: `${authorizationServer.issuer}/nowhere` })),
    ).rejects.toThrow(/nowhere/);
  });
});
