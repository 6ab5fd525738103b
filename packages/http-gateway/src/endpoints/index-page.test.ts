import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpGateway } from "../http-gateway.js";
import type { HttpGatewayOptions } from "../http-gateway-options.js";
import { createInMemoryRouter } from "../test-support/in-memory-router.js";
import { serveGateway } from "../test-support/serve-gateway.js";
import { connectSnippets } from "./connect-guide.js";
import { gatewayIndex, prefersHtml, renderIndexHtml } from "./index-page.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function start(options: Partial<HttpGatewayOptions> = {}): Promise<URL> {
  const { router } = await createInMemoryRouter();
  const gateway = createHttpGateway({ router, keepAliveIntervalMs: 0, ...options });
  const served = await serveGateway(gateway, router);
  stops.push(served.stop);
  return served.origin;
}

function requestWith(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe("GET /", () => {
  it("gives a browser an HTML page naming the endpoints, the dashboard and how to connect", async () => {
    const origin = await start({ index: { title: "patchbay-proxy", dashboardPath: "/dashboard" } });
    const response = await fetch(origin, { headers: { accept: "text/html,*/*;q=0.8" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain("<title>patchbay-proxy</title>");
    expect(html).toContain(`<code>${origin.origin}/mcp</code>`);
    expect(html).toContain(`<code>${origin.origin}/dashboard</code>`);
    expect(html).toContain(`ws://${origin.host}/ws`);
    expect(html).toContain(`claude mcp add --transport http patchbay ${origin.origin}/mcp`);
    expect(html).not.toContain("Authorization");
  });

  it("answers anything else with the same index as JSON, and says when a token is needed", async () => {
    const origin = await start({ tokens: [{ name: "ci", token: "a-secret-value-1234" }] });
    const response = await fetch(origin);
    expect(response.status).toBe(200);
    const index = (await response.json()) as ReturnType<typeof gatewayIndex>;
    expect(index.bearer).toBe(true);
    expect(index.endpoints["Streamable HTTP (MCP 2025-03-26 and later)"]).toBe(
      `${origin.origin}/mcp`,
    );
    expect(index.endpoints.dashboard).toBeUndefined();
    expect(index.connect.map((snippet) => snippet.client)).toEqual([
      "Claude Code",
      "Cursor",
      "VS Code",
      "Claude Desktop",
      "MCP Inspector",
    ]);
    expect(JSON.stringify(index)).not.toContain("a-secret-value-1234");
    // The session endpoints still ask for the token.
    expect((await fetch(new URL("/mcp", origin), { method: "POST" })).status).toBe(401);
  });

  it("answers HEAD with the headers only and other methods with 405", async () => {
    const origin = await start();
    const head = await fetch(origin, { method: "HEAD", headers: { accept: "text/html" } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await fetch(origin, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("the index's parts", () => {
  it("uses the request's Host only when it is a plain host and port, and escapes the page", () => {
    const hostile = gatewayIndex(requestWith({ host: 'x"><script>1</script>' }), {}, false);
    expect(hostile.endpoints.health).toBe("http://localhost/healthz");
    const page = renderIndexHtml({ ...hostile, title: "<b>&" });
    expect(page).toContain("<title>&#60;b&#62;&#38;</title>");
    expect(page).not.toContain("<b>");
    const ipv6 = gatewayIndex(requestWith({ host: "[::1]:8080" }), {}, false);
    expect(ipv6.endpoints.health).toBe("http://[::1]:8080/healthz");
  });

  it("prefers HTML only when text/html comes before application/json in Accept", () => {
    expect(prefersHtml(requestWith({ accept: "text/html,application/xhtml+xml" }))).toBe(true);
    expect(prefersHtml(requestWith({ accept: "application/json, text/html" }))).toBe(false);
    expect(prefersHtml(requestWith({}))).toBe(false);
  });

  it("puts the bearer header into every client's snippet when tokens are asked for", () => {
    const url = new URL("http://127.0.0.1:8080/mcp");
    const snippets = connectSnippets({ url, bearer: true });
    for (const snippet of snippets) expect(snippet.text).toMatch(/Authorization/);
    const desktop = JSON.parse(snippets[3]?.text ?? "{}");
    expect(desktop.mcpServers.patchbay).toEqual({
      command: "npx",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote's own placeholder
      args: ["mcp-remote", url.href, "--header", "Authorization:${AUTH_HEADER}"],
      env: { AUTH_HEADER: "Bearer <your token>" },
    });
    const vscode = JSON.parse(snippets[2]?.text ?? "{}");
    expect(vscode.servers.patchbay).toMatchObject({ type: "http", url: url.href });
  });
});
