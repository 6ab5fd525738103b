// @modelcontextprotocol/server-everything ships JavaScript only; this is the part the tests use.
declare module "@modelcontextprotocol/server-everything/dist/server/index.js" {
  import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
  export function createServer(): { server: McpServer; cleanup(sessionId?: string): void };
}
