import type { Server } from "@patchbay/server";

/**
 * A tool whose parameters are mirrored into HTTP headers (`x-mcp-header`, MCP 2026-07-28): over
 * Streamable HTTP a modern client sends `Mcp-Param-Region` (and `Mcp-Param-Priority` when given),
 * and the server refuses a call whose headers do not match its arguments (400, -32020). The
 * conformance suite's `http-custom-header-server-validation` scenario drives it.
 */
export function registerHeaderParamTools(server: Server): void {
  server.registerTool(
    "test_header_params",
    {
      description: "Runs a query in a region; region and priority travel as Mcp-Param headers too",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", description: "Where to run", "x-mcp-header": "Region" },
          query: { type: "string", description: "What to run" },
          priority: { type: "integer", description: "0 (low) to 9", "x-mcp-header": "Priority" },
        },
        required: ["region", "query"],
      },
    },
    (args) => {
      const { region, query, priority } = args as {
        region: string;
        query: string;
        priority?: number;
      };
      const text = `region=${region} query=${query}${priority === undefined ? "" : ` priority=${priority}`}`;
      return { content: [{ type: "text", text }] };
    },
  );
}
