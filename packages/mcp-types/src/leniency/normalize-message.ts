import { OptionalNotificationParamsSchema } from "../2024-11-05/base.js";
import { defineNotificationDescriptor } from "../methods/method-descriptor.js";
import { LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS } from "../versions.js";

/**
 * Method names some older clients send instead of the specification's. A bare `initialized` was
 * used by early clients; servers in the field accept it as `notifications/initialized`.
 */
export const METHOD_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  initialized: "notifications/initialized",
});

/** The specification's name for `method` (`initialized` becomes `notifications/initialized`). */
export function normalizeMethodName(method: string): string {
  return Object.hasOwn(METHOD_ALIASES, method) ? (METHOD_ALIASES[method] as string) : method;
}

/**
 * Returns `message` with an aliased method name replaced (a new object; the input is untouched),
 * or `message` itself when there is nothing to normalize. Anything that is not an object with a
 * string `method` is returned as is.
 */
export function normalizeMessage<Message>(message: Message): Message {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return message;
  const method = (message as { method?: unknown }).method;
  if (typeof method !== "string") return message;
  const normalized = normalizeMethodName(method);
  return normalized === method ? message : { ...message, method: normalized };
}

/**
 * Descriptor for the bare `initialized` notification, so a server can register the same handler
 * for it as for `notifications/initialized` (legacy revisions only).
 */
export const initializedAliasNotification = defineNotificationDescriptor(
  LATEST_LEGACY_PROTOCOL_VERSION,
  "initialized",
  OptionalNotificationParamsSchema,
  "client-to-server",
  LEGACY_PROTOCOL_VERSIONS,
);
