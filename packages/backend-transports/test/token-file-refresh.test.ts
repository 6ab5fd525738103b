import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileTokenStore, oauthTokenFile } from "../src/oauth/token-file.js";

const fixture = join(
  dirname(fileURLToPath(import.meta.url)),
  "fixtures",
  "request-with-token-file.mjs",
);

/**
 * An MCP server and its authorization server on 127.0.0.1, reduced to what a refresh needs: the
 * metadata, a token endpoint that rotates refresh tokens and refuses a used one (`invalid_grant`),
 * and an MCP endpoint that admits the access tokens issued. It answers the first requests with the
 * signed-in access token only once `holdFirst` of them have come (all then get their 401
 * `invalid_token` together), so that every process starts its refresh from the same old tokens.
 */
interface TokenServer {
  url: string;
  /** Each refresh grant: the refresh token it spent, and whether it was admitted. */
  readonly refreshes: { token: string; admitted: boolean }[];
  /** The access tokens of the admitted MCP requests. */
  readonly admitted: string[];
  holdFirst: number;
}

let server: Server;
let state: TokenServer;
let directory: string;

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", connection: "close" });
  response.end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

function startTokenServer(): Promise<{ server: Server; state: TokenServer }> {
  let issued = 0;
  const liveRefreshTokens = new Set(["refresh-0"]);
  const liveAccessTokens = new Set<string>();
  const held: (() => void)[] = [];
  const state: TokenServer = { url: "", refreshes: [], admitted: [], holdFirst: 0 };
  const server = createServer(async (request, response) => {
    const origin = `http://${request.headers.host}`;
    const path = request.url ?? "/";
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    }
    if (path === "/.well-known/oauth-authorization-server") {
      return json(response, 200, {
        issuer: `${origin}/`,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (path === "/token") {
      const form = new URLSearchParams(await bodyOf(request));
      const token = form.get("refresh_token") ?? "";
      const admitted = form.get("grant_type") === "refresh_token" && liveRefreshTokens.has(token);
      state.refreshes.push({ token, admitted });
      if (!admitted) return json(response, 400, { error: "invalid_grant" });
      liveRefreshTokens.delete(token);
      issued += 1;
      liveRefreshTokens.add(`refresh-${issued}`);
      liveAccessTokens.add(`access-${issued}`);
      return json(response, 200, {
        access_token: `access-${issued}`,
        refresh_token: `refresh-${issued}`,
        token_type: "Bearer",
        expires_in: 3600,
      });
    }
    const token = request.headers.authorization?.replace(/^Bearer /, "") ?? "";
    await bodyOf(request);
    if (liveAccessTokens.has(token)) {
      state.admitted.push(token);
      return json(response, 200, { jsonrpc: "2.0", id: 1, result: {} });
    }
    const refuse = () => {
      response.writeHead(401, {
        connection: "close",
        "www-authenticate": `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      });
      response.end();
    };
    if (state.holdFirst === 0) return refuse();
    held.push(refuse);
    if (held.length < state.holdFirst) return;
    state.holdFirst = 0;
    for (const answer of held.splice(0)) answer();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      resolve({ server, state });
    });
  });
}

/** Runs one process that sends a request through the token file; resolves with what it printed. */
function requestInChildProcess(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [fixture, state.url, directory],
      { timeout: 15_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  ({ server, state } = await startTokenServer());
  directory = mkdtempSync(join(tmpdir(), "patchbay-token-refresh-"));
});

afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  await new Promise((resolve) => server?.close(resolve));
});

describe("a token file shared by two gateway processes", () => {
  it("is refreshed once: both processes end with the rotated token, none is signed out", async () => {
    const path = oauthTokenFile(directory, "shared", state.url);
    const store = createFileTokenStore(path, { backend: "shared", serverUrl: state.url });
    // Signed in earlier; the server no longer admits this access token.
    await store.setTokens({ accessToken: "access-0", refreshToken: "refresh-0" });
    state.holdFirst = 2;

    const runs = await Promise.all([requestInChildProcess(), requestInChildProcess()]);

    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stdout: "200\n" });
    expect(state.refreshes).toEqual([{ token: "refresh-0", admitted: true }]);
    expect(state.admitted).toEqual(["access-1", "access-1"]);
    expect(await store.getTokens()).toMatchObject({
      accessToken: "access-1",
      refreshToken: "refresh-1",
    });
    // The lock file is gone, and no temporary file is left beside the token file.
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(readdirSync(dirname(path))).toEqual([path.split("/").at(-1)]);
    expect(JSON.parse(readFileSync(path, "utf8")).backend).toBe("shared");
  }, 20_000);
});
