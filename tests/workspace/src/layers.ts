/**
 * Which workspace packages each package may depend on at run time (docs/architecture.md, "Layers";
 * the picture there must match this table). Apps compose and may use anything; dev-only dependencies (tests) are not layers.
 */
export const allowedDependencies: Readonly<Record<string, readonly string[]>> = {
  "@patchbay/jsonrpc-core": [],
  "@patchbay/mcp-types": ["@patchbay/jsonrpc-core"],
  "@patchbay/transport-stdio": ["@patchbay/jsonrpc-core", "@patchbay/mcp-types"],
  "@patchbay/transport-http": ["@patchbay/jsonrpc-core", "@patchbay/mcp-types"],
  "@patchbay/transport-sse": [
    "@patchbay/jsonrpc-core",
    "@patchbay/mcp-types",
    "@patchbay/transport-http",
  ],
  "@patchbay/transport-ws": [
    "@patchbay/jsonrpc-core",
    "@patchbay/mcp-types",
    "@patchbay/transport-http",
  ],
  "@patchbay/telemetry": ["@patchbay/jsonrpc-core"],
  "@patchbay/server": ["@patchbay/jsonrpc-core", "@patchbay/mcp-types"],
  "@patchbay/client": ["@patchbay/jsonrpc-core", "@patchbay/mcp-types"],
  "@patchbay/router": [
    "@patchbay/jsonrpc-core",
    "@patchbay/mcp-types",
    "@patchbay/server",
    "@patchbay/client",
    "@patchbay/telemetry",
  ],
  "@patchbay/http-gateway": [
    "@patchbay/jsonrpc-core",
    "@patchbay/mcp-types",
    "@patchbay/server",
    "@patchbay/client",
    "@patchbay/router",
    "@patchbay/telemetry",
    "@patchbay/transport-http",
    "@patchbay/transport-sse",
    "@patchbay/transport-ws",
  ],
  "@patchbay/dashboard": [
    "@patchbay/jsonrpc-core",
    "@patchbay/mcp-types",
    "@patchbay/server",
    "@patchbay/client",
    "@patchbay/router",
    "@patchbay/telemetry",
    "@patchbay/transport-http",
    "@patchbay/http-gateway",
  ],
  "@patchbay/cluster-redis": [
    "@patchbay/jsonrpc-core",
    "@patchbay/mcp-types",
    "@patchbay/server",
    "@patchbay/client",
    "@patchbay/router",
    "@patchbay/telemetry",
    "@patchbay/transport-http",
    "@patchbay/transport-sse",
    "@patchbay/http-gateway",
  ],
  "@patchbay/contract-tests": ["@patchbay/jsonrpc-core", "@patchbay/mcp-types", "@patchbay/client"],
};
