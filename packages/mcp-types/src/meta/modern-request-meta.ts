import { getMetaValue, withMeta } from "./meta-access.js";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
} from "./meta-keys.js";

/** What a modern (2026-07-28) client puts in every request's `_meta`. */
export interface ModernRequestMeta {
  /** The protocol version of this request (required). */
  readonly protocolVersion: string;
  /** The client's capabilities for this request (required; `{}` for none). */
  readonly clientCapabilities: Record<string, unknown>;
  /** The client's implementation info (SHOULD). */
  readonly clientInfo?: { name: string; version: string; [key: string]: unknown };
  /** Opt in to log messages at this level (deprecated feature). */
  readonly logLevel?: string;
}

/** A copy of params carrying the modern per-request `_meta` keys. */
export function withModernRequestMeta<Params extends Record<string, unknown> | undefined>(
  params: Params,
  meta: ModernRequestMeta,
) {
  return withMeta(params, {
    [PROTOCOL_VERSION_META_KEY]: meta.protocolVersion,
    [CLIENT_CAPABILITIES_META_KEY]: meta.clientCapabilities,
    [CLIENT_INFO_META_KEY]: meta.clientInfo,
    [LOG_LEVEL_META_KEY]: meta.logLevel,
  });
}

/** The modern per-request `_meta` of params, or undefined when the version or capabilities lack. */
export function getModernRequestMeta(params: unknown): ModernRequestMeta | undefined {
  const protocolVersion = getMetaValue(params, PROTOCOL_VERSION_META_KEY);
  const clientCapabilities = getMetaValue(params, CLIENT_CAPABILITIES_META_KEY);
  if (typeof protocolVersion !== "string") return undefined;
  if (typeof clientCapabilities !== "object" || clientCapabilities === null) return undefined;
  const clientInfo = getMetaValue(params, CLIENT_INFO_META_KEY);
  const logLevel = getMetaValue(params, LOG_LEVEL_META_KEY);
  return {
    protocolVersion,
    clientCapabilities: clientCapabilities as Record<string, unknown>,
    ...(typeof clientInfo === "object" && clientInfo !== null
      ? { clientInfo: clientInfo as ModernRequestMeta["clientInfo"] & object }
      : {}),
    ...(typeof logLevel === "string" ? { logLevel } : {}),
  };
}

/** The `subscriptions/listen` id a notification belongs to (modern), or undefined. */
export function getSubscriptionId(params: unknown): string | number | undefined {
  const id = getMetaValue(params, SUBSCRIPTION_ID_META_KEY);
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** The server info a modern result carries in `_meta`, or undefined. */
export function getServerInfo(result: unknown): Record<string, unknown> | undefined {
  const info = getMetaValue(result, SERVER_INFO_META_KEY);
  return typeof info === "object" && info !== null ? (info as Record<string, unknown>) : undefined;
}
