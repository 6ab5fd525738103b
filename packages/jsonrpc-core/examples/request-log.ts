import {
  type Frame,
  isBatch,
  messagesOf,
  type Transport,
  tapTransport,
} from "@patchbay/jsonrpc-core";

/**
 * `inner`, with the method of every incoming request passed to `log`, and the log notifications this
 * side sends kept from the peer. Listeners subscribe to the result as to any transport.
 */
export function withRequestLog(inner: Transport, log: (method: string) => void): Transport {
  return tapTransport(inner, {
    incoming(frame: Frame) {
      // A batch arrives whole: look at each message, deliver the frame as it came.
      for (const message of messagesOf(frame)) {
        if ("method" in message && "id" in message) log(message.method);
      }
      return frame;
    },
    outgoing(frame: Frame) {
      const isLogLine =
        !isBatch(frame) && "method" in frame && frame.method === "notifications/message";
      return isLogLine ? undefined : frame;
    },
  });
}
