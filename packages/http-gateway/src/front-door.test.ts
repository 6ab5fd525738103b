import { get as httpGet } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway } from "./http-gateway.js";
import { createInMemoryRouter } from "./test-support/in-memory-router.js";
import { serveGateway } from "./test-support/serve-gateway.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function start(limits: { maxSessions: number; maxSessionsPerIdentity?: number }) {
  const { router } = await createInMemoryRouter();
  const gateway = createHttpGateway({
    router,
    tokens: [
      { name: "alpha", token: "alpha-token-0123456789abcdef" },
      { name: "beta", token: "beta-token-0123456789abcdef" },
    ],
    limits,
    keepAliveIntervalMs: 0,
  });
  const served = await serveGateway(gateway, router);
  stops.push(served.stop);
  const initialize = (token: string) =>
    fetch(new URL("/mcp", served.origin), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}-token-0123456789abcdef`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      }),
    }).then(async (response) => ({
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      text: await response.text(),
    }));
  return { gateway, initialize };
}

describe("session caps", () => {
  it("refuses a token's session past maxSessionsPerIdentity with 503, while other tokens still open theirs", async () => {
    const { gateway, initialize } = await start({ maxSessions: 10, maxSessionsPerIdentity: 2 });
    expect((await initialize("alpha")).status).toBe(200);
    expect((await initialize("alpha")).status).toBe(200);
    const refused = await initialize("alpha");
    expect([refused.status, refused.retryAfter]).toEqual([503, "5"]);
    expect(refused.text).toContain(
      "alpha has 2 open sessions, the limit (limits.maxSessionsPerIdentity)",
    );
    expect((await initialize("beta")).status).toBe(200);
    expect(gateway.sessionCount).toBe(3);
  });

  it("caps a token at a tenth of maxSessions when maxSessionsPerIdentity is not set", async () => {
    const { initialize } = await start({ maxSessions: 20 });
    expect((await initialize("alpha")).status).toBe(200);
    expect((await initialize("alpha")).status).toBe(200);
    expect((await initialize("alpha")).text).toContain(
      "alpha has 2 open sessions, the limit (limits.maxSessionsPerIdentity)",
    );
    expect((await initialize("beta")).status).toBe(200);
  });

  it("still caps a token at maxSessions when it sets maxSessionsPerIdentity higher", async () => {
    const { initialize } = await start({ maxSessions: 2, maxSessionsPerIdentity: 5 });
    expect((await initialize("alpha")).status).toBe(200);
    expect((await initialize("alpha")).status).toBe(200);
    expect((await initialize("alpha")).text).toContain("maximum of 2 sessions");
  });
});

describe("profile names", () => {
  it("are looked up among the configured profiles only, never on Object.prototype", async () => {
    const { router } = await createInMemoryRouter();
    const gateway = createHttpGateway({ router, keepAliveIntervalMs: 0 });
    const served = await serveGateway(gateway, router);
    stops.push(served.stop);
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const response = await fetch(new URL(`/mcp/${name}`, served.origin), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      expect([name, response.status]).toEqual([name, 404]);
      expect(await response.text()).toContain(`unknown profile: ${name}`);
    }
  });
});

describe("the paths without a token", () => {
  function get(origin: URL, path: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = httpGet(new URL(path, origin), { headers }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
    });
  }

  it("refuse a foreign Host or Origin with 403, as the MCP endpoints do (DNS rebinding)", async () => {
    const { router } = await createInMemoryRouter();
    const gateway = createHttpGateway({ router, keepAliveIntervalMs: 0 });
    const served = await serveGateway(gateway, router);
    stops.push(served.stop);
    for (const path of ["/", "/healthz", "/readyz", "/metrics"]) {
      expect([path, await get(served.origin, path, { host: "rebound.example" })]).toEqual([
        path,
        403,
      ]);
      const origin = { origin: "http://rebound.example" };
      expect([path, await get(served.origin, path, origin)]).toEqual([path, 403]);
      expect([path, await get(served.origin, path, {})]).toEqual([path, 200]);
    }
  });
});
