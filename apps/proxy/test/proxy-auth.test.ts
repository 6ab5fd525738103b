// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values with ${VAR} references
import { request as httpRequest } from "node:http";
import { hashToken } from "@patchbay/http-gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectSdk,
  postJson,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

const ADMIN = "admin-token-0123456789abcdef";
const TEAM = "team-token-0123456789abcdef";
const TEAM_TWO = "team-two-token-0123456789abcdef";

let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy(
    {
      mcpServers: { sample: sampleEntry(), other: sampleEntry() },
      profiles: { team: { servers: ["sample"], tools: { deny: ["sample__toggle_*"] } } },
      auth: {
        tokens: [
          { name: "admin", token: "${ADMIN_TOKEN}" },
          { name: "team", sha256: hashToken(TEAM), profiles: ["team"] },
          { name: "team-two", token: TEAM_TWO, profiles: ["team"] },
        ],
      },
    },
    { environment: { ADMIN_TOKEN: ADMIN } },
  );
});
afterAll(() => proxy.stop());

const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("bearer tokens", () => {
  it("answers a request without a token with 401, WWW-Authenticate and a JSON-RPC error", async () => {
    const answer = await postJson(proxy.url, listTools);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="patchbay"');
    expect(answer.body).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { message: "missing bearer token" },
    });
  });

  it("logs the 401 as a missing or invalid bearer token, and never the token sent", async () => {
    const isRefusal = (message: string) => (line: string) => {
      const entry = JSON.parse(line) as { kind?: string; status?: unknown; message?: string };
      return entry.kind === "http" && entry.status === 401 && entry.message === message;
    };
    await postJson(proxy.url, listTools);
    await proxy.waitForLog(isRefusal("missing bearer token"));
    const wrong = "wrong-token-0123456789abcdef";
    await postJson(proxy.url, listTools, { authorization: `Bearer ${wrong}` });
    await proxy.waitForLog(isRefusal("invalid bearer token"));
    expect(proxy.logs.join("")).not.toContain(wrong);
    expect(proxy.logs.join("")).not.toContain("bearer [REDACTED]");
  });

  it("answers a wrong token with 401 invalid_token", async () => {
    const answer = await postJson(proxy.url, listTools, { authorization: `Bearer ${ADMIN}x` });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("accepts a token given as ${ENV} and one given as its sha256", async () => {
    const admin = await postJson(proxy.url, listTools, { authorization: `Bearer ${ADMIN}` });
    expect(admin.status).toBe(200);
    const team = await postJson(proxy.at("/mcp/team"), listTools, {
      authorization: `Bearer ${TEAM}`,
    });
    expect(team.status).toBe(200);
  });

  it("answers 403 for a profile the token may not use, including the default endpoint", async () => {
    const answer = await postJson(proxy.url, listTools, { authorization: `Bearer ${TEAM}` });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(answer.body).toMatchObject({
      error: { message: "token team may not use the default endpoint (every backend)" },
    });
  });

  it("lets the official SDK client in with a token, and keeps tokens out of the logs", async () => {
    const { client } = await connectSdk(proxy.url, { token: ADMIN });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["sample__echo", "other__echo"]));
    await client.close();
    const logs = proxy.logs.join("");
    expect(logs).toContain('"client":"admin"');
    expect(logs).not.toContain(ADMIN);
    expect(logs).not.toContain(TEAM_TWO);
  });
});

describe("profiles", () => {
  it("shows a profile's client only its backends and allowed tools", async () => {
    const { client } = await connectSdk(proxy.at("/mcp/team"), { token: TEAM });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("sample__echo");
    expect(names.filter((name) => name.startsWith("other__"))).toEqual([]);
    expect(names).not.toContain("sample__toggle_extra_tool");
    await client.close();
  });

  it("refuses a namespaced name guessed from outside the profile", async () => {
    const { client } = await connectSdk(proxy.at("/mcp/team"), { token: TEAM });
    for (const name of ["other__echo", "sample__toggle_extra_tool"]) {
      await expect(client.callTool({ name, arguments: { message: "x" } })).rejects.toThrow(
        /not found/i,
      );
    }
    const echoed = await client.callTool({ name: "sample__echo", arguments: { message: "hi" } });
    expect(echoed.content).toEqual([{ type: "text", text: "hi" }]);
    await client.close();
  });

  it("answers an unknown profile with 404", async () => {
    const answer = await postJson(proxy.at("/mcp/nope"), listTools, {
      authorization: `Bearer ${ADMIN}`,
    });
    expect(answer.status).toBe(404);
  });
});

describe("session ownership", () => {
  it("gives another token 404 for a session it did not create", async () => {
    const { client, transport } = await connectSdk(proxy.at("/mcp/team"), { token: TEAM });
    const sessionId = transport.sessionId as string;
    const foreign = await fetch(proxy.at("/mcp/team"), {
      method: "POST",
      headers: {
        authorization: `Bearer ${TEAM_TWO}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(listTools),
    });
    expect(foreign.status).toBe(404);
    const foreignBody = await foreign.json();
    expect(foreignBody).toMatchObject({ error: { code: -32013, message: "Session not found" } });
    // Word for word the answer to a session id that nobody holds: no existence oracle.
    const unknown = await fetch(proxy.at("/mcp/team"), {
      method: "POST",
      headers: {
        authorization: `Bearer ${TEAM_TWO}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "0123456789abcdef0123456789abcdef",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(listTools),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(foreignBody);
    // The owner goes on as before.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe("HTTP surface", () => {
  it("refuses a foreign Origin with 403", async () => {
    const answer = await postJson(proxy.url, listTools, {
      authorization: `Bearer ${ADMIN}`,
      origin: "http://evil.example",
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      error: { message: "Forbidden: invalid Origin: http://evil.example" },
    });
  });

  it("refuses a foreign Host with 403 (DNS rebinding)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(proxy.url, {
        method: "POST",
        headers: {
          host: "evil.example",
          "content-type": "application/json",
          authorization: `Bearer ${ADMIN}`,
        },
      });
      outgoing.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on("error", reject);
      outgoing.end(JSON.stringify(listTools));
    });
    expect(status).toBe(403);
  });

  it("answers unknown paths 404 and wrong methods 405", async () => {
    expect((await fetch(proxy.at("/nope"))).status).toBe(404);
    const post = await fetch(proxy.at("/healthz"), { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    const put = await fetch(proxy.url, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(put.status).toBe(405);
    const getMessages = await fetch(proxy.at("/messages"), {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(getMessages.status).toBe(405);
  });

  it("serves /healthz, /readyz and /metrics without a token", async () => {
    expect(await (await fetch(proxy.at("/healthz"))).json()).toEqual({ status: "ok" });
    expect(await (await fetch(proxy.at("/readyz"))).json()).toEqual({
      ready: true,
      backends: { sample: "running", other: "running" },
    });
    const metrics = await fetch(proxy.at("/metrics"));
    expect(metrics.headers.get("content-type")).toContain("text/plain");
    const text = await metrics.text();
    expect(text).toMatch(/patchbay_http_refused_total\{status="401"\} [1-9]/);
    expect(text).toMatch(/^patchbay_http_sessions \d+$/m);
  });
});
