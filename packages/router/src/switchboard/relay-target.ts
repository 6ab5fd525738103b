import type { ServerRequestEvent } from "../backends/backend-events.js";

/** Which session answers a backend's request, or why none may. */
export type RelayTarget =
  | { readonly session: string; readonly rule: RelayRule }
  | { readonly refused: string };

/** The rule that picked a session (shown in events, named in tests). */
export type RelayRule = "owner" | "related-call" | "only-caller" | "only-session";

/**
 * The client session a backend's server-to-client request goes to, by cause (README "Route by
 * cause"). `owner` is the session a per-session backend belongs to; `audience` the initialized
 * sessions that see the backend.
 *
 * 1. A per-session backend's request goes to its session.
 * 2. A request related to a call in flight goes to the session that made the call.
 * 3. Otherwise (stdio carries no relation, or it names no client call) it goes to the only session
 *    with calls in flight to the backend, or, when none has any, to the only session that sees it.
 * 4. Anything else is refused: the gateway never guesses between clients.
 */
export function chooseRelayTarget(
  request: Pick<ServerRequestEvent, "backend" | "method" | "cause" | "busyCallers">,
  audience: readonly string[],
  owner?: string,
): RelayTarget {
  if (owner !== undefined) {
    return audience.includes(owner)
      ? { session: owner, rule: "owner" }
      : { refused: `the client session of backend "${request.backend}" is not ready` };
  }
  const cause = request.cause;
  if (cause !== undefined) {
    return audience.includes(cause.caller)
      ? { session: cause.caller, rule: "related-call" }
      : { refused: `the client whose call caused ${request.method} is gone` };
  }
  const busy = request.busyCallers.filter((caller) => audience.includes(caller));
  if (busy.length === 1) return { session: busy[0] as string, rule: "only-caller" };
  if (busy.length > 1) {
    return {
      refused: `${busy.length} clients have calls in flight to backend "${request.backend}" and its ${request.method} names none of them`,
    };
  }
  if (audience.length === 1) return { session: audience[0] as string, rule: "only-session" };
  return audience.length === 0
    ? { refused: `no connected client can answer ${request.method} yet` }
    : {
        refused: `${audience.length} clients could have caused ${request.method} of backend "${request.backend}", which names no call`,
      };
}
