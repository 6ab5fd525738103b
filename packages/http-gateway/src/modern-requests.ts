import type { JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { ModernEndpoint } from "@patchbay/router";
import type { Clock, ModernMessageHandler } from "@patchbay/transport-http";
import { ANONYMOUS } from "./admission.js";
import { type FrontRequestEnd, RESULT_TOO_LARGE_CODE } from "./front-guard.js";
import type { TokenIdentity } from "./token-auth.js";

/** What the modern path of one profile needs. */
export interface ModernRequestsOptions {
  readonly maxResultBytes: number;
  readonly clock: Clock;
  /** Each modern request answered, with the token that sent it. */
  readonly onRequestEnd: (end: FrontRequestEnd, owner: TokenIdentity) => void;
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
  return {
    protocolVersions: endpoint.protocolVersions,
    async handle(message, context) {
      const owner = (context.info.extra?.authInfo as TokenIdentity | undefined) ?? ANONYMOUS;
      const startedAt = options.clock.now();
      const answer = await endpoint.handle(message, { ...context, caller: owner.name });
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
