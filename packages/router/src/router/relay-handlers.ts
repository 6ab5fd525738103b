import type { ClientHandlers } from "@patchbay/client";
import type { BackendHost } from "./backend.js";

/**
 * The handlers whose presence makes a backend's client declare sampling, elicitation and roots:
 * only those the clients behind the gateway declared, when they are known (all three otherwise).
 * Each relays the backend's request to a client through `host`.
 */
export function relayHandlers(backend: string, host: BackendHost): Partial<ClientHandlers> {
  const capabilities = host.clientCapabilities(backend);
  const declares = (name: string) => capabilities === undefined || capabilities[name] !== undefined;
  const handlers: Partial<ClientHandlers> = {};
  if (declares("sampling")) {
    handlers.sampling = (params, context) =>
      host.relayToClient(backend, "sampling/createMessage", params, context.signal) as never;
    const sampling = capabilities?.sampling as Record<string, unknown> | undefined;
    if (capabilities === undefined || sampling?.tools !== undefined) handlers.samplingTools = true;
  }
  if (declares("elicitation")) {
    handlers.elicitation = (params, context) =>
      host.relayToClient(backend, "elicitation/create", params, context.signal) as never;
    const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
    const modes: ("form" | "url")[] = [];
    if (
      capabilities === undefined ||
      elicitation?.form !== undefined ||
      Object.keys(elicitation ?? {}).length === 0
    ) {
      modes.push("form");
    }
    if (capabilities === undefined || elicitation?.url !== undefined) modes.push("url");
    handlers.elicitationModes = modes;
  }
  if (declares("roots")) {
    handlers.roots = (context) =>
      host.relayToClient(backend, "roots/list", {}, context.signal) as never;
  }
  return handlers;
}
