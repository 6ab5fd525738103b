import { InvalidFrameError } from "../errors/transport-errors.js";
import { toError } from "../internal/listener-set.js";
import { type Frame, isBatch, type JSONRPCId } from "../messages.js";
import type { Transport } from "../transport.js";
import type { SdkTransportLike } from "./sdk-transport-like.js";

/**
 * Wraps a Patchbay transport so that the official SDK's `Client` or `Server` can `connect()` to it.
 *
 * The SDK handles single messages only, so an incoming batch is delivered message by message (their
 * responses go back one by one) and the -32600 responses owed for its invalid elements are sent back
 * as a batch here. Invalid frames are answered with their error response and passed to `onerror`.
 * `info.extra` of a frame is handed to `onmessage` as the SDK's `extra` (request and auth info).
 */
export function toSdkTransport(transport: Transport): SdkTransportLike {
  const adapter: SdkTransportLike = {
    start: () => transport.start(),
    // The SDK sends what its own schemas produced: single, valid messages. Its `relatedRequestId`
    // (a server's message made while handling a request) is ours.
    send: (message, options) => {
      const related = (options as { relatedRequestId?: JSONRPCId } | undefined)?.relatedRequestId;
      return related === undefined
        ? transport.send(message as Frame)
        : transport.send(message as Frame, { relatedRequestId: related });
    },
    close: () => transport.close(),
  };
  const reportSendFailure = (error: unknown) => adapter.onerror?.(toError(error));
  transport.onFrame((frame, info) => {
    const extra = info.extra;
    if (!isBatch(frame)) {
      adapter.onmessage?.(frame, extra);
      return;
    }
    for (const message of frame) adapter.onmessage?.(message, extra);
    const rejected = info.rejected ?? [];
    if (rejected.length > 0) transport.send(rejected).catch(reportSendFailure);
  });
  transport.onError((error) => {
    if (InvalidFrameError.isInstance(error))
      transport.send(error.response).catch(reportSendFailure);
    adapter.onerror?.(error);
  });
  transport.onClose(() => adapter.onclose?.());
  return adapter;
}
