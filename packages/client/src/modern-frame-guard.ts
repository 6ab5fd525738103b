import type { Frame, JSONRPCMessage, Transport } from "@patchbay/jsonrpc-core";

/**
 * Wraps a transport so that, once `isModern()` says so, no request from the server is handled and
 * no response is written (MCP 2026-07-28 stdio: the client MUST NOT write responses; the server
 * asks for input with `input_required` results instead). A dropped request is reported to error
 * listeners. Before the era is known, and in the legacy era, frames pass untouched.
 */
export function guardModernFrames(transport: Transport, isModern: () => boolean): Transport {
  const errorListeners = new Set<(error: Error) => void>();
  return {
    start: () => transport.start(),
    close: () => transport.close(),
    // Not async: every request a client sends passes here, on the transport's own promise.
    send(frame, options) {
      if (isModern() && messagesOf(frame).every((message) => !("method" in message)))
        return Promise.resolve();
      try {
        return transport.send(frame, options);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    onFrame(listener) {
      return transport.onFrame((frame, info) => {
        if (!isModern()) {
          listener(frame, info);
          return;
        }
        const kept = messagesOf(frame).filter((message) => {
          if (!("method" in message && "id" in message)) return true;
          const problem = new Error(
            `Ignored the server's ${message.method} request: modern (2026-07-28) servers ask for input with input_required results`,
          );
          for (const errorListener of [...errorListeners]) errorListener(problem);
          return false;
        });
        if (kept.length === 0) return;
        listener(Array.isArray(frame) ? kept : (kept[0] as JSONRPCMessage), info);
      });
    },
    onError(listener) {
      errorListeners.add(listener);
      const unsubscribe = transport.onError(listener);
      return () => {
        errorListeners.delete(listener);
        unsubscribe();
      };
    },
    onClose: (listener) => transport.onClose(listener),
  };
}

function messagesOf(frame: Frame): readonly JSONRPCMessage[] {
  return Array.isArray(frame) ? frame : [frame as JSONRPCMessage];
}
