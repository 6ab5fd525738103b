import type { RequestContext } from "@patchbay/jsonrpc-core";
import type { SessionCatalogue } from "../sessions/session-catalogue.js";
import type { CallGovernor, CallIdentity } from "./call-governor.js";

/** What a session hands the governor for its tool calls. */
export interface GovernedSession {
  readonly view: SessionCatalogue;
  readonly governor: CallGovernor;
  readonly who: CallIdentity;
  /** True when some backend lists a tool under this exposed name, shown to this client or not. */
  readonly listedAnywhere: (exposedName: string) => boolean;
}

/** One client's `tools/call`, as the session received it. */
export interface ToolCallRequest {
  /** The exposed name asked for. */
  readonly name: string;
  /** True for the gateway's own tools (`gateway_status`, `get_events`). */
  readonly isLocal: boolean;
  readonly arguments: unknown;
  readonly context: RequestContext;
}

/**
 * Runs a session's tool call through the governor (per-tool limits, the audit record), naming the
 * backend that owns the tool, or why none does, once the backends this client sees are up (as the
 * call itself waits for them: see `SessionCatalogue.startsUnderway`).
 */
export function governToolCall(
  session: GovernedSession,
  call: ToolCallRequest,
  run: () => unknown,
): Promise<unknown> {
  const { view } = session;
  const govern = () => {
    const backend = call.isLocal
      ? "gateway"
      : (view.current().findTool(call.name)?.backend ?? view.formerOwner(call.name)?.backend);
    const denial =
      backend !== undefined
        ? undefined
        : session.listedAnywhere(call.name)
          ? ("tool_not_allowed" as const)
          : ("unknown_tool" as const);
    return session.governor.call(
      {
        who: session.who,
        tool: call.name,
        arguments: call.arguments,
        context: call.context,
        backend,
        denial,
        profile: view.profile(),
      },
      run,
    );
  };
  // A name no backend lists yet may be one a start underway is about to list: the audit record and
  // the limit then name its backend, as they would a moment later.
  const findOwner = () => {
    const listed = call.isLocal || view.current().findTool(call.name) !== undefined;
    const underway = listed ? undefined : view.startsUnderway();
    return underway === undefined ? govern() : underway.then(govern);
  };
  return view.hasStartingBackends() ? view.awaitStartingBackends().then(findOwner) : findOwner();
}
