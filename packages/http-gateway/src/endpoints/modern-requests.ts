import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { GatewayErrorCode, type ModernEndpoint, type SessionViewer } from "@patchbay/router";
import type { Clock, ModernMessageContext, ModernMessageHandler } from "@patchbay/transport-http";
import { ANONYMOUS } from "../admission/admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ModernRelay } from "../cluster/cluster.js";
import {
  type FrontRequestEnd,
  REQUEST_TIMEOUT_CODE,
  RESULT_TOO_LARGE_CODE,
} from "../session/front-guard.js";
import { viewerOf } from "../session/serve-session.js";

/** What the modern path of one profile needs. */
export interface ModernRequestsOptions {
  readonly maxResultBytes: number;
  /**
   * A request still unanswered after this is answered -32001 and its call cancelled (its signal
   * aborted, so the backend gets `notifications/cancelled`); a late answer is dropped. 0: no limit.
   */
  readonly requestTimeoutMs: number;
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
 * (its held calls and request state are its own), a result over `maxResultBytes` fails with -32012
 * as on sessions, and each answered request is reported like a session's.
 */
export function modernRequests(
  endpoint: ModernEndpoint,
  options: ModernRequestsOptions,
): ModernMessageHandler {
  const profile = options.profile ?? "";
  // The replica holding a call serves its retries that reached other replicas, and logs each.
  options.relay?.serve(profile, async (request, context) => {
    const startedAt = options.clock.now();
    const answer = await endpoint.handle(request.message, { ...context, caller: request.caller });
    const times = { startedAt, cancelledAt: undefined };
    const end = requestEndOf(request.message, answer, times, options.clock);
    const owner: TokenIdentity = { name: request.caller, profiles: new Set([profile]) };
    if (end !== undefined) options.onRequestEnd({ ...end, relayed: true }, owner);
    return answer;
  });
  return {
    protocolVersions: endpoint.protocolVersions,
    async handle(message, context) {
      const owner = (context.info.extra?.authInfo as TokenIdentity | undefined) ?? ANONYMOUS;
      const startedAt = options.clock.now();
      const cancelledAt = whenAborted(context.signal, options.clock);
      const answer = await withinRequestTimeout(message, context.signal, options, (signal) =>
        answerHereOrThere(endpoint, options.relay, profile, message, {
          ...context,
          signal,
          caller: owner.name,
          viewer: viewerOf(owner),
        }),
      );
      const checked =
        answer === undefined ? undefined : limitResult(answer, options.maxResultBytes);
      const end = requestEndOf(
        message,
        checked,
        { startedAt, cancelledAt: cancelledAt() },
        options.clock,
      );
      if (end !== undefined) options.onRequestEnd(end, owner);
      return checked;
    },
  };
}

/**
 * How a modern request ended, for the log and metrics: `cancelled` at the time the client closed
 * its stream (once, whatever answer follows), else its answer's outcome; undefined without either.
 */
function requestEndOf(
  message: JSONRPCRequest | JSONRPCNotification,
  checked: JSONRPCResponse | undefined,
  times: { readonly startedAt: number; readonly cancelledAt: number | undefined },
  clock: Clock,
): FrontRequestEnd | undefined {
  const params = (message.params ?? {}) as { name?: unknown };
  const name = typeof params.name === "string" ? params.name : undefined;
  const base = { method: message.method, name, traceId: undefined };
  if (times.cancelledAt !== undefined && "id" in message) {
    const durationMs = times.cancelledAt - times.startedAt;
    return { ...base, status: "cancelled", backend: undefined, durationMs };
  }
  if (checked === undefined) return undefined;
  const data = ("error" in checked ? checked.error.data : undefined) as
    | { backend?: unknown }
    | undefined;
  return {
    ...base,
    status: "error" in checked ? checked.error.code : "ok",
    backend: typeof data?.backend === "string" ? data.backend : undefined,
    durationMs: clock.now() - times.startedAt,
  };
}

/** The time `signal` was aborted, once it was (read after the request settled). */
function whenAborted(signal: AbortSignal, clock: Clock): () => number | undefined {
  if (signal.aborted) {
    const at = clock.now();
    return () => at;
  }
  let at: number | undefined;
  const record = () => {
    at = clock.now();
  };
  signal.addEventListener("abort", record, { once: true });
  return () => {
    signal.removeEventListener("abort", record);
    return at;
  };
}

/**
 * Runs `answer` with a signal aborted when the client goes away or when `requestTimeoutMs` passes
 * first; in the second case the request is answered -32001 at once, as on sessions.
 */
async function withinRequestTimeout(
  message: JSONRPCRequest | JSONRPCNotification,
  clientSignal: AbortSignal,
  options: ModernRequestsOptions,
  answer: (signal: AbortSignal) => Promise<JSONRPCResponse | undefined>,
): Promise<JSONRPCResponse | undefined> {
  const { clock, requestTimeoutMs } = options;
  if (requestTimeoutMs <= 0 || !("id" in message)) return answer(clientSignal);
  const call = new AbortController();
  const abort = () => call.abort(clientSignal.reason);
  if (clientSignal.aborted) abort();
  else clientSignal.addEventListener("abort", abort, { once: true });
  let timer: unknown;
  const timedOut = new Promise<JSONRPCResponse>((resolve) => {
    timer = clock.setTimeout(() => {
      const text = `request timed out after ${requestTimeoutMs} ms (limits.requestTimeoutMs)`;
      call.abort(new Error(text));
      resolve({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: REQUEST_TIMEOUT_CODE, message: text },
      });
    }, requestTimeoutMs);
  });
  try {
    return await Promise.race([answer(call.signal), timedOut]);
  } finally {
    clock.clearTimeout(timer);
    clientSignal.removeEventListener("abort", abort);
  }
}

/** Serves a request here, or relays a retry to the replica holding its call. */
async function answerHereOrThere(
  endpoint: ModernEndpoint,
  relay: ModernRelay | undefined,
  profile: string,
  message: JSONRPCRequest | JSONRPCNotification,
  context: ModernMessageContext & { readonly caller: string; readonly viewer: SessionViewer },
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
