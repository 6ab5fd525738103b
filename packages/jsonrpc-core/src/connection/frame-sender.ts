import { ConnectionClosedError } from "../errors/connection-errors.js";
import { TransportError } from "../errors/transport-errors.js";
import { toError } from "../internal/listener-set.js";
import type { Frame, JSONRPCId } from "../messages.js";
import type { Transport } from "../transport.js";

/** Sends frames on a connection's transport, turning every failure into a rejected promise. */
export interface FrameSender {
  /** Sends a frame; rejects with `ConnectionClosedError` after close, `TransportError` on failure. */
  send(frame: Frame, relatedRequestId?: JSONRPCId): Promise<void>;
  /** Sends a frame and reports a failure instead of rejecting (responses, cancel notifications). */
  sendQuietly(frame: Frame, relatedRequestId?: JSONRPCId): void;
  /**
   * Sends a frame and hands a failure (as `send` would reject with it) to `onFailure` instead of
   * rejecting: one promise handler, for requests, whose failure settles the request instead.
   */
  sendOr(
    frame: Frame,
    relatedRequestId: JSONRPCId | undefined,
    onFailure: (error: Error) => void,
  ): void;
}

/** Builds the sender of one connection. */
export function createFrameSender(
  transport: Transport,
  isClosed: () => boolean,
  report: (error: Error) => void,
): FrameSender {
  const transportSend = (frame: Frame, relatedRequestId?: JSONRPCId): Promise<void> => {
    try {
      return relatedRequestId === undefined
        ? transport.send(frame)
        : transport.send(frame, { relatedRequestId });
    } catch (error) {
      // A transport that throws instead of rejecting still fails only this call.
      return Promise.reject(error);
    }
  };
  return {
    send(frame, relatedRequestId) {
      if (isClosed()) return Promise.reject(new ConnectionClosedError());
      return transportSend(frame, relatedRequestId).catch((error: unknown) => {
        throw asTransportError(error);
      });
    },
    // One handler on the transport's promise: responses are sent this way, once per request.
    sendQuietly(frame, relatedRequestId) {
      if (isClosed()) return;
      transportSend(frame, relatedRequestId).then(undefined, (error: unknown) =>
        report(toError(asTransportError(error))),
      );
    },
    sendOr(frame, relatedRequestId, onFailure) {
      if (isClosed()) {
        onFailure(new ConnectionClosedError());
        return;
      }
      transportSend(frame, relatedRequestId).then(undefined, (error: unknown) =>
        onFailure(toError(asTransportError(error))),
      );
    },
  };
}

function asTransportError(error: unknown): unknown {
  return TransportError.isInstance(error)
    ? error
    : new TransportError("The transport failed to send", { cause: error });
}
