import { connectSnippets } from "@patchbay/http-gateway";

/**
 * What the proxy prints at start: where it serves (MCP endpoints, dashboard, operational paths) and
 * how to connect the common MCP clients (the same snippets `GET /` shows).
 */
export function startupBanner(
  url: URL,
  profiles: readonly string[],
  authenticated: boolean,
  oauthIssuers: readonly string[] = [],
): string {
  const at = (path: string) => new URL(path, url).href;
  const lines = [
    `patchbay-proxy serving MCP (Streamable HTTP) at ${url.href}`,
    ...profiles.map((profile) => `  profile ${profile}: ${at(`/mcp/${profile}`)}`),
    `  legacy SSE: ${at("/sse")}  WebSocket: ${at("/ws").replace(/^http/, "ws")}`,
    `  dashboard: ${at("/dashboard")}  this list and how to connect: ${at("/")}`,
    `  health: ${at("/healthz")}  ready: ${at("/readyz")}  metrics: ${at("/metrics")}`,
  ];
  if (oauthIssuers.length > 0) {
    lines.push(
      `  OAuth sign-in: clients discover ${oauthIssuers.join(", ")} at ${at("/.well-known/oauth-protected-resource/mcp")}`,
    );
  }
  for (const snippet of connectSnippets({ url, bearer: authenticated })) {
    lines.push("", `${snippet.client} (${snippet.where}):`, snippet.text);
  }
  return `${lines.join("\n")}\n\n`;
}
