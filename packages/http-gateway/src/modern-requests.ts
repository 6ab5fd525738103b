import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { GatewayErrorCode, type ModernEndpoint } from "@patchbay/router";
import type { Clock, ModernMessageContext, ModernMessageHandler } from "@patchbay/transport-http";
import { ANONYMOUS } from "./admission.js";
import type { ModernRelay } from "./cluster.js";
import { type FrontRequestEnd, RESULT_TOO_LARGE_CODE } from "./front-guard.js";
import type { TokenIdentity } from "./token-auth.js";

/** What the modern path of one profile needs. */
export interface ModernRequestsOptions {
  readonly maxResultBytes: number;
  readonly clock: Clock;
  /** Each modern request answered, with the token that sent it. */
  readonly onRequestEnd: (end: FrontRequestEnd, owner: TokenIdentity) => void;
  /**
   * Replicas: a retry whose `requestState` names a call held on another replica is relayed there,
   * and this replica serves the retries relayed to it for `profile`.
   */
  readonly relay?: ModernRelay | undefined;
  /** The profile served (`""` or absent: the default endpoint), which relayed requests name. */
  readonly profile?: string | undefined;
}

/**
 * The modern (2026-07-28) requests of one profile: each token is a caller of its own at the router
 * (its held calls and request state are its own), a result over `maxResultBytes` fails with -32010
 * as on sessions, and each answered request is reported like a session's.
 */
export function modernRequests(
  endpoint: ModernEndpoint,
  options: ModernRequestsOptions,
): ModernMessageHandler {
  const profile = options.profile ?? "";
  // The replica holding a call serves its retries that reached other replicas.
  options.relay?.serve(profile, (request, context) =>
    endpoint.handle(request.message, { ...context, caller: request.caller }),
  );
  return {
    protocolVersions: endpoint.protocolVersions,
    async handle(message, context) {
      const owner = (context.info.extra?.authInfo as TokenIdentity | undefined) ?? ANONYMOUS;
      const startedAt = options.clock.now();
      const answer = await answerHereOrThere(endpoint, options.relay, profile, message, {
        ...context,
        caller: owner.name,
      });
      if (answer === undefined) return undefined;
      const checked = limitResult(answer, options.maxResultBytes);
      const params = (message.params ?? {}) as { name?: unknown };
      const data = ("error" in checked ? checked.error.data : undefined) as
        | { backend?: unknown }
        | undefined;
      options.onRequestEnd(
        {
          method: message.method,
          name: typeof params.name === "string" ? params.name : undefined,
          status: "error" in checked ? checked.error.code : "ok",
          backend: typeof data?.backend === "string" ? data.backend : undefined,
          durationMs: options.clock.now() - startedAt,
          traceId: undefined,
        },
        owner,
      );
      return checked;
    },
  };
}

/** Serves a request here, or relays a retry to the replica holding its call. */
async function answerHereOrThere(
  endpoint: ModernEndpoint,
  relay: ModernRelay | undefined,
  profile: string,
  message: JSONRPCRequest | JSONRPCNotification,
  context: ModernMessageContext & { readonly caller: string },
): Promise<JSONRPCResponse | undefined> {
  const holder =
    relay === undefined || !("id" in message)
      ? undefined
      : await endpoint.heldElsewhere(message, context.caller);
  if (relay === undefined || holder === undefined || !("id" in message)) {
    return endpoint.handle(message, context);
  }
  try {
    const answer = await relay.forward(
      holder,
      { profile, caller: context.caller, message },
      { signal: context.signal, notify: context.notify },
    );
    return { ...answer, id: message.id };
  } catch (error) {
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: GatewayErrorCode.HeldCallEnded,
        message: `The call this requestState names is held by proxy replica ${holder}, which cannot answer (${(error as Error).message}); the backend call may have run; send the request again without requestState`,
      },
    };
  }
}

function limitResult(answer: JSONRPCResponse, maxResultBytes: number): JSONRPCResponse {
  if (!("result" in answer)) return answer;
  const size = Buffer.byteLength(JSON.stringify(answer.result));
  if (size <= maxResultBytes) return answer;
  return {
    jsonrpc: "2.0",
    id: answer.id,
    error: {
      code: RESULT_TOO_LARGE_CODE,
      message: `the result of ${size} bytes exceeds the limit of ${maxResultBytes} bytes (limits.maxResultBytes)`,
    },
  };
}
