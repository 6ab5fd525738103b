import { JSONRPCError, type JSONRPCParams, type RequestContext } from "@patchbay/jsonrpc-core";
import { createUrlElicitationRequiredError } from "@patchbay/mcp-types";
import { InvalidCursorError, paginate } from "../catalogue/pagination.js";
import { backendUnavailableError, INVALID_PARAMS, unknownNameError } from "../errors/map-error.js";
import type { CallIdentity } from "../governance/call-governor.js";
import { governToolCall } from "../governance/govern-tool-call.js";
import { fixedArgumentsToolError, injectFixedArguments } from "../overrides/apply-tool-override.js";
import type { RouterState } from "../router/router-state.js";
import type { ForwardCall } from "./forward-call.js";
import { GATEWAY_STATUS_TOOL, GET_EVENTS_TOOL, jsonToolResult } from "./gateway-tools.js";
import { asParams, type Params, rewriteResourceUris, toJSONRPCError, withField } from "./params.js";
import type { MissingCredential, SessionCatalogue } from "./session-catalogue.js";
import type { SessionLifecycle } from "./session-lifecycle.js";
import type { SessionSubscriptions } from "./session-subscriptions.js";

/** The parts of a session the catalogue requests use. */
export interface CatalogueRequestParts {
  readonly lifecycle: SessionLifecycle;
  readonly view: SessionCatalogue;
  readonly forward: ForwardCall;
  readonly subscriptions: SessionSubscriptions;
  readonly state: RouterState;
  /** What `gateway_status` answers this session. */
  readonly status: () => Record<string, unknown>;
  /** What `get_events` answers this session (throws on a bad query). */
  readonly events: (query: Params) => unknown;
  /** Who the session serves, for the audit log and per-tool limits. */
  readonly who: CallIdentity;
  /** True when some backend lists a tool under this exposed name, shown to this client or not. */
  readonly listedAnywhere: (exposedName: string) => boolean;
}

/** Sends a request for a named tool, prompt or resource to the backend that owns it. */
type OwnerCall = (
  kind: "tool" | "prompt" | "resource",
  method: string,
  request: Params,
  context: RequestContext,
) => Promise<unknown>;

const listMethods = {
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
} as const;

/**
 * Answers the catalogue requests of one client: the four paginated lists from the aggregated
 * catalogue, and `tools/call`, `prompts/get`, `resources/read|subscribe|unsubscribe`,
 * `completion/complete` by forwarding to the owning backend under its own names.
 */
export function registerCatalogueRequests(parts: CatalogueRequestParts): void {
  const { lifecycle, view, forward, state } = parts;
  const callOwner = createOwnerCall(view, forward, lifecycle);

  const gatewayTools: Record<string, (args: Params) => unknown> = {
    [GATEWAY_STATUS_TOOL]: () => jsonToolResult(parts.status()),
    [GET_EVENTS_TOOL]: (args) => {
      try {
        return jsonToolResult(parts.events(args));
      } catch (error) {
        // Bad arguments of a tool are a tool error, not a protocol error (MCP 2025-11-25).
        return jsonToolResult(
          { error: error instanceof Error ? error.message : String(error) },
          true,
        );
      }
    },
  };

  for (const [method, key] of Object.entries(listMethods)) {
    lifecycle.handle(method, async (params) => {
      await view.awaitStartingBackends();
      const catalogue = view.current();
      const items: readonly unknown[] =
        key === "tools" ? [...view.gatewayTools(), ...catalogue.tools] : catalogue[key];
      try {
        const cursor = asParams(params).cursor;
        const page = paginate(key, items, cursor, state.config.pageSize);
        if (cursor === undefined) view.noteListed(key);
        return page.nextCursor === undefined
          ? { [key]: page.items }
          : { [key]: page.items, nextCursor: page.nextCursor };
      } catch (error) {
        if (error instanceof InvalidCursorError) {
          throw new JSONRPCError(INVALID_PARAMS, error.message, { cursor: error.cursor });
        }
        throw error;
      }
    });
  }

  lifecycle.handle("tools/call", (params, context) => {
    const request = asParams(params);
    const name = String(request.name ?? "");
    const local = gatewayTools[name];
    const isLocal = local !== undefined && view.gatewayTools().some((tool) => tool.name === name);
    const run = () =>
      isLocal
        ? local(asParams(request.arguments as JSONRPCParams))
        : callOwner("tool", "tools/call", request, context);
    // `state.governor.watches(view.profile())` without a call per tool call: the config's part is
    // kept by the router state, the profile's is read here. Ungoverned, a backend's tool is called
    // at once.
    if (!state.callsGoverned && view.profile()?.limits?.tools === undefined) {
      return isLocal ? run() : callOwner("tool", "tools/call", request, context);
    }
    return governToolCall(
      { view, governor: state.governor, who: parts.who, listedAnywhere: parts.listedAnywhere },
      { name, isLocal, arguments: request.arguments, context },
      run,
    );
  });

  lifecycle.handle("prompts/get", (params, context) =>
    callOwner("prompt", "prompts/get", asParams(params), context),
  );

  lifecycle.handle("resources/read", (params, context) =>
    callOwner("resource", "resources/read", asParams(params), context),
  );

  for (const method of ["resources/subscribe", "resources/unsubscribe"] as const) {
    lifecycle.handle(method, (params, context) =>
      parts.subscriptions.change(method, asParams(params), context, forward),
    );
  }

  lifecycle.handle("completion/complete", async (params, context) => {
    const request = asParams(params);
    const ref = asParams(request.ref as JSONRPCParams);
    await view.awaitStartingBackends();
    const isPrompt = ref.type === "ref/prompt";
    const exposed = String((isPrompt ? ref.name : ref.uri) ?? "");
    const entry = await view.lookUp((catalogue) =>
      isPrompt ? catalogue.findPrompt(exposed) : catalogue.findResource(exposed),
    );
    if (!entry) throw toJSONRPCError(unknownNameError(isPrompt ? "prompt" : "resource", exposed));
    const ownRef = isPrompt ? { ...ref, name: entry.name } : { ...ref, uri: entry.name };
    return await forward(
      entry.backend,
      "completion/complete",
      { ...request, ref: ownRef },
      context,
      true,
    );
  });
}

/**
 * Sends a client's request for a named tool, prompt or resource to the backend that owns it, once
 * the backends this client sees are up: a name is unknown only when no start is underway.
 */
function createOwnerCall(
  view: SessionCatalogue,
  forward: ForwardCall,
  lifecycle: SessionLifecycle,
): OwnerCall {
  const callOwner: OwnerCall = (kind, method, request, context) => {
    // Checked first: awaiting nothing would still cost a turn on every forwarded call.
    if (view.hasStartingBackends()) {
      return view.awaitStartingBackends().then(() => sendToOwner(kind, method, request, context));
    }
    return sendToOwner(kind, method, request, context);
  };

  // Not async: a forwarded call's answer goes back through as few promise handlers as it can.
  // `waited`: the starts underway when the name was first missed are over (looked up again).
  const sendToOwner = (
    kind: "tool" | "prompt" | "resource",
    method: string,
    request: Params,
    context: RequestContext,
    waited = false,
  ): Promise<unknown> => {
    const key = kind === "resource" ? "uri" : "name";
    const exposed = String(request[key] ?? "");
    const catalogue = view.current();
    const entry =
      kind === "tool"
        ? catalogue.findTool(exposed)
        : kind === "prompt"
          ? catalogue.findPrompt(exposed)
          : catalogue.findResource(exposed);
    if (!entry) {
      // Its owner may be a backend still starting past the list wait, or restarting: not unknown yet.
      const underway = waited ? undefined : view.startsUnderway();
      if (underway !== undefined) {
        return underway.then(() => sendToOwner(kind, method, request, context, true));
      }
      // A backend waiting for a sign-in is tried once more (the person may have signed in since);
      // still signed out, the call is told what to run.
      const signedOut = kind === "tool" && !waited ? view.awaitingSignIn(exposed) : undefined;
      if (signedOut !== undefined) {
        return signedOut.start().then(() => sendToOwner(kind, method, request, context, true));
      }
      const pending = kind === "tool" ? view.awaitingSignIn(exposed) : undefined;
      if (pending !== undefined) {
        return Promise.reject(
          toJSONRPCError(backendUnavailableError(pending.name, pending.status, pending.lastError)),
        );
      }
      // A tool of a backend that is down is gone from the list; say why rather than "not found".
      // A client that can open a URL itself is told when the connect it was sent to is done.
      const elicitationId =
        kind === "tool" && acceptsUrlElicitation(lifecycle) ? crypto.randomUUID() : undefined;
      const needed = kind === "tool" ? view.missingCredential(exposed, elicitationId) : undefined;
      if (needed !== undefined) return missingCredentialAnswer(needed, elicitationId);
      const former = kind === "tool" ? view.formerOwner(exposed) : undefined;
      if (former)
        return Promise.reject(
          toJSONRPCError(backendUnavailableError(former.backend, former.status)),
        );
      return Promise.reject(toJSONRPCError(unknownNameError(kind, exposed)));
    }
    let copy = withField(request, key, entry.name);
    if (entry.fixedArguments !== undefined) {
      const injected = injectFixedArguments(copy, entry.fixedArguments);
      if ("refused" in injected) {
        return Promise.resolve(fixedArgumentsToolError(exposed, injected.refused));
      }
      copy = injected.params;
    }
    const result = forward(entry.backend, method, copy, context, true);
    // Results are copied only for a backend that has rewritten URIs (large reads stay cheap); the
    // catalogue is asked again when the answer comes, since it may have changed meanwhile. A
    // backend without rewritten URIs when the call is sent adds no handler to the answer's way.
    if (!catalogue.rewritesUrisOf(entry.backend)) return result;
    return result.then((answer) => {
      const current = view.current();
      if (!current.rewritesUrisOf(entry.backend)) return answer;
      return rewriteResourceUris(answer, (uri) => current.exposeResourceUri(entry.backend, uri));
    });
  };
  return callOwner;
}

/**
 * The answer to a call its principal's missing credential keeps from its backend: a connect link
 * goes to a client that declared URL-mode elicitation (`elicitationId` set) as -32042
 * `URLElicitationRequired` (2025-11-25), to any other in the tool error's text.
 */
function missingCredentialAnswer(
  needed: MissingCredential,
  elicitationId: string | undefined,
): Promise<unknown> {
  if (needed.connectUrl === undefined || elicitationId === undefined) {
    return Promise.resolve(credentialToolError(needed.message));
  }
  const elicitation = {
    mode: "url" as const,
    message: needed.message,
    url: needed.connectUrl,
    elicitationId,
  };
  return Promise.reject(
    toJSONRPCError(createUrlElicitationRequiredError([elicitation], needed.message)),
  );
}

/** A client of 2025-11-25 that declared `elicitation.url` in `initialize`. */
function acceptsUrlElicitation(lifecycle: SessionLifecycle): boolean {
  const elicitation = lifecycle.clientCapabilities?.elicitation as
    | Readonly<Record<string, unknown>>
    | undefined;
  return lifecycle.protocolVersion === "2025-11-25" && elicitation?.url !== undefined;
}

/** The tool error of a call that its principal's missing credential keeps from its backend. */
function credentialToolError(message: string) {
  return { content: [{ type: "text", text: message }], isError: true };
}
