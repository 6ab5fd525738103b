import {
  type Frame,
  isBatch,
  type JSONRPCMessage,
  type Transport,
  type TransportTap,
  tapTransport,
} from "@patchbay/jsonrpc-core";

/** A transport that drops the server's requests and the client's responses once `engage()` is called. */
export interface ModernFrameGuard {
  readonly transport: Transport;
  /** The session is modern: from now on, no server request is handled and no response written. */
  engage(): void;
}

/**
 * Wraps a transport so that, once engaged, no request from the server is handled and no response
 * is written (MCP 2026-07-28 stdio: the client MUST NOT write responses; the server asks for input
 * with `input_required` results instead). A dropped request is reported to error listeners. Before
 * the era is known, and in the legacy era, frames pass untouched: the tap has no hook to call.
 */
export function guardModernFrames(transport: Transport): ModernFrameGuard {
  const hooks: TransportTap = {};
  const guarded = tapTransport(transport, hooks);
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
  return {
    transport: guarded,
    engage() {
      hooks.outgoing = (frame) => (carriesOnlyResponses(frame) ? undefined : frame);
      hooks.incoming = (frame) => {
        if (!isBatch(frame)) return admitted(frame) ? frame : undefined;
        const kept = frame.filter(admitted);
        return kept.length === 0 ? undefined : kept;
      };
    },
  };
}

/** A frame of responses only (a modern client writes none of them). */
function carriesOnlyResponses(frame: Frame): boolean {
  return isBatch(frame) ? frame.every((message) => !("method" in message)) : !("method" in frame);
}
