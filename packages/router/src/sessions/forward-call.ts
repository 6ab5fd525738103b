import {
  type Connection,
  JSONRPCError,
  type JSONRPCParams,
  type RequestContext,
} from "@patchbay/jsonrpc-core";
import { isImplementationDefinedErrorCode } from "@patchbay/mcp-types";
import { tasksExtensionRequired } from "@patchbay/server";
import { handOffTrace, requestTraceOf } from "@patchbay/telemetry";
import type { BackendRequestOptions } from "../backends/backend.js";
import { callerCapabilities } from "../backends/caller-capabilities.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { mapBackendError, unknownNameError } from "../errors/map-error.js";
import type { RouterState } from "../router/router-state.js";
import {
  callerTaskExtensions,
  requiresTasksExtension,
  taskAugmentationRequired,
} from "../tasks/caller-tasks.js";
import { TASKS_DECLARED } from "../tasks/front-tasks.js";
import { offersTasksExtension, routeBridgedTask } from "../tasks/legacy-modern-bridge.js";
import { routeCreatedLegacyTask, TASK_STATUS_NOTIFICATION } from "../tasks/legacy-tasks.js";
import {
  modernCreatedTaskOf,
  refusedWithoutLegacyTask,
  runsAsLegacyTask,
} from "../tasks/modern-legacy-bridge.js";
import { type Params, prepareForwardedParams, toJSONRPCError } from "./params.js";
import type { SessionCatalogue } from "./session-catalogue.js";

/** Sends a client's request on to a backend and its answer back. */
export type ForwardCall = (
  backend: string,
  method: string,
  params: Params,
  context: RequestContext,
  /** `params` is a copy made for this call alone (the trace may be written into it, not copied). */
  ownsParams?: boolean,
) => Promise<unknown>;

const OWNED = { owned: true } as const;

/**
 * Forwarding for one session: the backend gets the request under its own connection's id and
 * progress token, with the client's trace context, marked as this client's call (so what the
 * backend asks during it comes back here); progress comes back with the client's token, related to
 * the client's request; failures become wire errors naming the backend. Behind a modern front
 * (`modernFront`), a request declares toward a modern backend the modern client's own sampling,
 * elicitation and roots capabilities of that request, and a `tools/call` the tasks extension when
 * the modern client declared it; a legacy client calling a tool its modern backend runs
 * only as a task gets -32601 (see `taskAugmentationRequired`). A legacy client's task-augmented
 * call (`params.task`, 2025-11-25) that creates a task is recorded in the router's task table; on
 * a modern backend with the tasks extension the call declares it and the task is bridged; a modern
 * client's call that declares the extension asks a legacy backend with tasks for a 2025-11-25 task.
 */
export function createForwarder(
  sessionId: string,
  connection: Connection,
  view: SessionCatalogue,
  state: RouterState,
  modernFront = false,
): ForwardCall {
  // Not an async function: the answer reaches the client through one handler less per call.
  return (backendName, method, params, context, ownsParams) => {
    const backend = view.findBackend(backendName);
    if (!backend) return Promise.reject(toJSONRPCError(unknownNameError("tool", backendName)));
    if (state.closing) {
      return Promise.reject(
        new JSONRPCError(GatewayErrorCode.GatewayShuttingDown, "The gateway is shutting down", {
          backend: backendName,
        }),
      );
    }
    const prepared = prepareForwardedParams(params);
    const clientToken = prepared.progressToken;
    const trace = requestTraceOf(context);
    // The backend transport's tracker (create-router instruments it) writes the traceparent.
    // Params the forwarder copied (or that prepareForwardedParams did) are this call's alone.
    const owned = ownsParams === true || prepared.params !== params;
    let sent = trace
      ? handOffTrace(prepared.params, trace, owned ? OWNED : undefined)
      : prepared.params;
    const options: { -readonly [K in keyof BackendRequestOptions]: BackendRequestOptions[K] } = {
      cause: { caller: sessionId, requestId: context.id },
    };
    // Relayed without an AbortSignal where the context allows (made only when read).
    if (context.cancellation !== undefined) options.cancellation = context.cancellation;
    else options.signal = context.signal;
    const taskCall = method === "tools/call";
    // A legacy client's task on a modern backend: the call declares the extension (see the bridge).
    const bridged =
      taskCall &&
      !modernFront &&
      params.task !== undefined &&
      offersTasksExtension(backend.initializeResult?.capabilities);
    if (bridged) options.extensions = TASKS_DECLARED;
    let modernToLegacy = false;
    if (modernFront) {
      if (taskCall) {
        const extensions = callerTaskExtensions(params);
        if (extensions !== undefined) options.extensions = extensions;
        // A modern client's task on a legacy backend: the call asks for a 2025-11-25 task.
        modernToLegacy = extensions !== undefined && runsAsLegacyTask(backend, params.name);
        if (modernToLegacy) sent = { ...sent, task: {} };
      }
      const capabilities = callerCapabilities(params);
      if (capabilities !== undefined) options.callerCapabilities = capabilities;
    }
    if (clientToken !== undefined) {
      const related = { relatedRequestId: context.id };
      options.onProgress = (progress: unknown) => {
        const forwarded = { ...(progress as Params), progressToken: clientToken };
        connection.notify("notifications/progress", forwarded, related).catch(() => {});
      };
    }
    let answer: Promise<unknown>;
    try {
      answer = backend.request(method, sent as JSONRPCParams, options);
    } catch (error) {
      answer = Promise.reject(error);
    }
    const forwarded = answer.then(undefined, (error: unknown) => {
      if (taskCall && !modernFront && requiresTasksExtension(error)) {
        throw taskAugmentationRequired(params.name, backendName);
      }
      if (modernFront && taskCall && !modernToLegacy) {
        if (refusedWithoutLegacyTask(error, backend, params.name)) {
          throw tasksExtensionRequired(`Tool ${String(params.name)}`);
        }
      }
      if (
        JSONRPCError.isInstance(error) &&
        isImplementationDefinedErrorCode(error.code) &&
        hasBackend(error.data)
      )
        throw error;
      throw toJSONRPCError(mapBackendError(error, backendName, { redact: state.telemetry.redact }));
    });
    if (modernToLegacy) return forwarded.then(modernCreatedTaskOf);
    // One property read per call; only a task-augmented call gets a handler more.
    if (!taskCall || modernFront || params.task === undefined) return forwarded;
    if (bridged) {
      const requestedTtl = (params.task as { ttl?: unknown } | null)?.ttl;
      return forwarded.then((result) =>
        routeBridgedTask(state.tasks, result, { sessionId, requestedTtl }, backend),
      );
    }
    const session = {
      id: sessionId,
      tell(status: Params) {
        connection.notify(TASK_STATUS_NOTIFICATION, status).catch(() => {});
      },
    };
    return forwarded.then((result) =>
      routeCreatedLegacyTask(state.tasks, result, session, backend),
    );
  };
}

function hasBackend(data: unknown): boolean {
  return typeof data === "object" && data !== null && "backend" in data;
}
