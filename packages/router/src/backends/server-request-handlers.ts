import type { ClientHandlers, ClientRequestContext } from "@patchbay/client";
import type { ServerToClientMethod } from "./backend-events.js";

/** Passes one server-to-client request on; resolves with the answer for the backend. */
export type AskClient = (
  method: ServerToClientMethod,
  params: unknown,
  context: ClientRequestContext,
) => Promise<unknown>;

/**
 * The handlers whose presence makes a backend's client declare sampling, elicitation and roots:
 * only those the clients behind the gateway declared, when they are known (all three otherwise).
 * Each passes the backend's request to `ask`.
 */
export function serverRequestHandlers(
  capabilities: Readonly<Record<string, unknown>> | undefined,
  ask: AskClient,
): Partial<ClientHandlers> {
  const declares = (name: string) => capabilities === undefined || capabilities[name] !== undefined;
  const handlers: Partial<ClientHandlers> = {};
  if (declares("sampling")) {
    handlers.sampling = (params, context) =>
      ask("sampling/createMessage", params, context) as never;
    const sampling = capabilities?.sampling as Record<string, unknown> | undefined;
    if (capabilities === undefined || sampling?.tools !== undefined) handlers.samplingTools = true;
  }
  if (declares("elicitation")) {
    handlers.elicitation = (params, context) => ask("elicitation/create", params, context) as never;
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
    handlers.roots = (context) => ask("roots/list", {}, context) as never;
  }
  return handlers;
}
