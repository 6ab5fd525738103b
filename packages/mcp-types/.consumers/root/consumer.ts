import type { Tool } from "@patchbay/mcp-types";
export const t: Tool | undefined = undefined;
