import type { Frame, FrameInfo, JSONRPCId } from "@patchbay/jsonrpc-core";

/**
 * Where the stdio transport writes the relation of a server's request or notification to the client
 * request it belongs to (`Transport.send(frame, { relatedRequestId })`). Newline-delimited JSON has
 * no other place for it; Streamable HTTP carries the same relation by the POST stream it answers
 * on. A Patchbay stdio client reads it back into `FrameInfo.relatedRequestId` and removes it, so a
 * gateway can route a backend's sampling, elicitation or roots request to the client that caused
 * it. Other peers ignore an unknown `_meta` key, as MCP asks.
 */
export const RELATED_REQUEST_META_KEY = "io.patchbay/related-request-id";

type MessageWithParams = { method?: unknown; params?: Record<string, unknown> };

/** The frame to write: a request or notification gains the relation in `params._meta`. */
export function withRelatedRequest(frame: Frame, relatedRequestId: JSONRPCId | undefined): Frame {
  if (relatedRequestId === undefined || Array.isArray(frame)) return frame;
  const message = frame as MessageWithParams;
  // Progress names its call by token already; it is the most frequent related message, so it is
  // sent as it is rather than copied.
  if (typeof message.method !== "string" || message.method === "notifications/progress") {
    return frame;
  }
  const params = message.params ?? {};
  const meta = (params._meta as Record<string, unknown> | undefined) ?? {};
  return {
    ...frame,
    params: { ...params, _meta: { ...meta, [RELATED_REQUEST_META_KEY]: relatedRequestId } },
  } as Frame;
}

/**
 * The info to deliver with a received frame: the relation, when a request or notification carries
 * one (the key is removed from the message, which was parsed for this delivery alone).
 */
export function readRelatedRequest(frame: Frame, info: FrameInfo): FrameInfo {
  if (Array.isArray(frame)) return info;
  const meta = (frame as MessageWithParams).params?._meta as Record<string, unknown> | undefined;
  if (meta === undefined || !(RELATED_REQUEST_META_KEY in meta)) return info;
  const related = meta[RELATED_REQUEST_META_KEY];
  delete meta[RELATED_REQUEST_META_KEY];
  if (typeof related !== "string" && typeof related !== "number") return info;
  return { ...info, relatedRequestId: related };
}
