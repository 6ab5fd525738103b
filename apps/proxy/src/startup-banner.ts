/** What the proxy prints at start: where it serves, and a client config to paste. */
export function startupBanner(
  url: URL,
  profiles: readonly string[],
  authenticated: boolean,
): string {
  const entry: Record<string, unknown> = { type: "http", url: url.href };
  if (authenticated) entry.headers = { Authorization: "Bearer <your token>" };
  const snippet = JSON.stringify({ mcpServers: { patchbay: entry } }, null, 2);
  const lines = [
    `patchbay-proxy serving MCP (Streamable HTTP) at ${url.href}`,
    ...profiles.map((profile) => `  profile ${profile}: ${new URL(`/mcp/${profile}`, url).href}`),
    `  legacy SSE: ${new URL("/sse", url).href}`,
    `  health: ${new URL("/healthz", url).href}  ready: ${new URL("/readyz", url).href}  metrics: ${new URL("/metrics", url).href}`,
    "",
    "Paste into your MCP client's config:",
    snippet,
    "",
  ];
  return `${lines.join("\n")}\n`;
}
