import {
  type Frame,
  isBatch,
  type JSONRPCMessage,
  type Transport,
  tapTransport,
} from "@patchbay/jsonrpc-core";

/**
 * Wraps a transport so that, once `isModern()` says so, no request from the server is handled and
 * no response is written (MCP 2026-07-28 stdio: the client MUST NOT write responses; the server
 * asks for input with `input_required` results instead). A dropped request is reported to error
 * listeners. Before the era is known, and in the legacy era, frames pass untouched.
 */
export function guardModernFrames(transport: Transport, isModern: () => boolean): Transport {
  const guarded = tapTransport(transport, {
    // Every request a client sends passes here: no array for a single message.
    outgoing: (frame) => (isModern() && carriesOnlyResponses(frame) ? undefined : frame),
    incoming(frame) {
      if (!isModern()) return frame;
      if (!isBatch(frame)) return admitted(frame) ? frame : undefined;
      const kept = frame.filter(admitted);
      return kept.length === 0 ? undefined : kept;
    },
  });
  /** Whether a server message may reach the client; a request is reported and dropped. */
  const admitted = (message: JSONRPCMessage): boolean => {
    if (!("method" in message && "id" in message)) return true;
    guarded.emitError(
      new Error(
        `Ignored the server's ${message.method} request: modern (2026-07-28) servers ask for input with input_required results`,
      ),
    );
    return false;
  };
  return guarded;
}

/** A frame of responses only (a modern client writes none of them). */
function carriesOnlyResponses(frame: Frame): boolean {
  return isBatch(frame) ? frame.every((message) => !("method" in message)) : !("method" in frame);
}
