import type { IncomingMessage, ServerResponse } from "node:http";
import { headerValue, writeJsonBody } from "@patchbay/transport-http";
import { type ClientSnippet, connectSnippets } from "./connect-guide.js";

/** What `GET /` tells about this gateway (see `HttpGatewayOptions.index`). */
export interface GatewayIndexOptions {
  /** The name shown as the page's title. Default `Patchbay`. */
  readonly title?: string;
  /** Where the app serves a dashboard, when it does (the proxy: `/dashboard`). */
  readonly dashboardPath?: string;
}

/** The answer of `GET /` as JSON: the endpoints and how to connect to `/mcp`. */
export interface GatewayIndex {
  readonly title: string;
  readonly endpoints: Readonly<Record<string, string>>;
  /** True when the MCP endpoints ask for `Authorization: Bearer <token>`. */
  readonly bearer: boolean;
  readonly connect: readonly ClientSnippet[];
}

// A Host header of a name or address and a port, nothing that could break out of a URL or HTML.
const hostPattern = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** The index for a request: absolute URLs when its Host is a plain host[:port], else paths. */
export function gatewayIndex(
  request: IncomingMessage,
  options: GatewayIndexOptions,
  bearer: boolean,
): GatewayIndex {
  const host = headerValue(request, "host");
  const base = host !== undefined && hostPattern.test(host) ? `http://${host}` : "http://localhost";
  const at = (path: string) => new URL(path, base).href;
  const endpoints: Record<string, string> = {
    "Streamable HTTP (MCP 2025-03-26 and later)": at("/mcp"),
    "a profile's endpoint": at("/mcp/<profile>"),
    "legacy HTTP+SSE (MCP 2024-11-05)": at("/sse"),
    WebSocket: at("/ws").replace(/^http/, "ws"),
    ...(options.dashboardPath === undefined ? {} : { dashboard: at(options.dashboardPath) }),
    health: at("/healthz"),
    readiness: at("/readyz"),
    "metrics (Prometheus)": at("/metrics"),
  };
  return {
    title: options.title ?? "Patchbay",
    endpoints,
    bearer,
    connect: connectSnippets({ url: new URL(at("/mcp")), bearer }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The index as a small HTML page for a person who opened the gateway in a browser. */
export function renderIndexHtml(index: GatewayIndex): string {
  const title = escapeHtml(index.title);
  const endpoints = Object.entries(index.endpoints)
    .map(([name, url]) => `<li>${escapeHtml(name)}: <code>${escapeHtml(url)}</code></li>`)
    .join("\n");
  const snippets = index.connect
    .map(
      (snippet) =>
        `<h3>${escapeHtml(snippet.client)} <small>(${escapeHtml(snippet.where)})</small></h3>\n<pre>${escapeHtml(snippet.text)}</pre>`,
    )
    .join("\n");
  const auth = index.bearer
    ? "<p>The MCP endpoints ask for <code>Authorization: Bearer &lt;your token&gt;</code>.</p>"
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem">
<h1>${title}</h1>
<p>This is an MCP gateway: MCP clients connect to the endpoints below; a browser has nothing to open at them.</p>
<ul>
${endpoints}
</ul>
${auth}
<h2>Connect a client</h2>
${snippets}
</body></html>
`;
}

/** True when the client asked for HTML before JSON (a browser's navigation does). */
export function prefersHtml(request: IncomingMessage): boolean {
  const accept = headerValue(request, "accept") ?? "";
  const html = accept.indexOf("text/html");
  if (html === -1) return false;
  const json = accept.indexOf("application/json");
  return json === -1 || html < json;
}

/** Answers `GET /`: the HTML page for a browser, the index as JSON otherwise. */
export function serveIndex(
  request: IncomingMessage,
  response: ServerResponse,
  options: GatewayIndexOptions,
  bearer: boolean,
): void {
  const index = gatewayIndex(request, options, bearer);
  if (!prefersHtml(request)) {
    writeJsonBody(response, 200, index);
    return;
  }
  response.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    "x-content-type-options": "nosniff",
  });
  response.end(request.method === "HEAD" ? undefined : renderIndexHtml(index));
}
