// The README example, compiled by `pnpm typecheck` (the import path is the only difference).
import { v2025_11_25, validateMessage } from "../src/index.js";

/** Validates what a client sent and what a server answered, for one revision. */
export function main(): string[] {
  const lines: string[] = [];

  // A whole JSON-RPC message: envelope and params of the method, for revision 2025-11-25.
  const request = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "github__create_issue", arguments: { title: "Bug" } },
  };
  const checked = validateMessage("2025-11-25", request);
  lines.push(checked.success ? "request ok" : checked.message);

  // A response: say which method it answers so its result is checked too.
  const response = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text" }] } };
  const refused = validateMessage("2025-11-25", response, { requestMethod: "tools/call" });
  if (!refused.success) lines.push(refused.message);

  // Or use one schema of a revision directly (zod 4); unknown fields are kept.
  const tool = v2025_11_25.ToolSchema.parse({
    name: "get_weather",
    inputSchema: { type: "object" },
    "x-vendor": true,
  });
  lines.push(`${tool.name} keeps x-vendor: ${String(tool["x-vendor"])}`);
  return lines;
}
