import type { Tool } from "@patchbay/mcp-types/2025-11-25";
export const t: Tool | undefined = undefined;
