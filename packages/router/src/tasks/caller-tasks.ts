import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { ErrorCode, getModernRequestMeta, TASKS_EXTENSION_ID } from "@patchbay/mcp-types";
import { declaresTasks } from "@patchbay/server";

/** Extensions a request declares toward a backend, by id. */
type Extensions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * The tasks extension as the modern client behind a front declared it in this request's `_meta`
 * (2026-07-28 carries client capabilities per request), to be declared toward a modern backend for
 * this request only; undefined when the client did not declare it.
 */
export function callerTaskExtensions(
  params: Readonly<Record<string, unknown>>,
): Extensions | undefined {
  const meta = getModernRequestMeta(params);
  if (meta === undefined || !declaresTasks(meta)) return undefined;
  const extensions = (meta.clientCapabilities as { extensions?: Record<string, unknown> })
    .extensions;
  const settings = extensions?.[TASKS_EXTENSION_ID];
  return {
    [TASKS_EXTENSION_ID]:
      typeof settings === "object" && settings !== null
        ? (settings as Record<string, unknown>)
        : {},
  };
}

/** True for a modern backend's -32021 naming the tasks extension as what the request lacked. */
export function requiresTasksExtension(error: unknown): boolean {
  if (!JSONRPCError.isInstance(error) || error.code !== ErrorCode.MissingRequiredClientCapability) {
    return false;
  }
  const required = (error.data as { requiredCapabilities?: { extensions?: unknown } } | undefined)
    ?.requiredCapabilities?.extensions;
  return typeof required === "object" && required !== null && TASKS_EXTENSION_ID in required;
}

/**
 * What a legacy (2025-11-25 or older) client gets for a tool whose backend runs it only as a task:
 * -32601, as 2025-11-25 answers a call without task augmentation of a tool whose `taskSupport` is
 * `required`, naming the tool and why (the gateway passes tasks only to 2026-07-28 clients).
 */
export function taskAugmentationRequired(tool: unknown, backend: string): JSONRPCError {
  return new JSONRPCError(
    ErrorCode.MethodNotFound,
    `Tool ${String(tool)} (backend ${backend}) requires task augmentation: its backend runs it only as a task (extension ${TASKS_EXTENSION_ID}), which the gateway offers to 2026-07-28 clients only`,
    { backend },
  );
}
