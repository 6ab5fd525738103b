import type { GatewayConfig } from "@patchbay/router";

/**
 * The backend a `tools/call` or `prompts/get` name points at, read from its namespace prefix (for
 * logs only: the router routes by its own catalogue).
 */
export function backendOfName(
  config: GatewayConfig,
  name: string | undefined,
  method: string,
): string | undefined {
  if (name === undefined || (method !== "tools/call" && method !== "prompts/get")) return undefined;
  const prefixed = config.backends.find(
    (backend) =>
      backend.namespace !== "" &&
      name.startsWith(`${backend.namespace}${config.namespaceSeparator}`),
  );
  return (prefixed ?? config.backends.find((backend) => backend.namespace === ""))?.name;
}
