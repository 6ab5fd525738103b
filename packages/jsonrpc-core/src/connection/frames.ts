import { ConnectionClosedError } from "../errors/connection-errors.js";
import { InvalidFrameError, LineTooLongError, TransportError } from "../errors/transport-errors.js";
import { toError } from "../internal/listener-set.js";
import {
  type Frame,
  isBatch,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCResponse,
} from "../messages.js";
import type { FrameInfo, Transport, TransportCloseEvent } from "../transport.js";
import { answerDroppedLine } from "./dropped-line.js";
import type { IncomingRequests } from "./incoming-requests.js";
import type { NotificationDispatch } from "./notification-dispatch.js";
import type { OutgoingRequests } from "./outgoing-requests.js";

/**
 * A connection's frames on its transport: incoming frames handed to the part of the connection
 * they are for ({@link receiveFrames}), outgoing frames sent with every failure turned into a
 * rejection or a report ({@link createFrameSender}).
 */

/** The parts of a connection that incoming frames are handed to. */
export interface FrameReceivers {
  readonly outgoing: OutgoingRequests;
  readonly incoming: IncomingRequests;
  readonly notifications: NotificationDispatch;
  readonly sender: FrameSender;
  report(error: Error): void;
  /** The transport closed (called once). */
  closed(event: TransportCloseEvent): void;
}

/**
 * Subscribes a connection to its transport: responses settle outgoing requests, requests run their
 * handlers, notifications are dispatched, batches are
 * answered as one batch, invalid frames get their error response.
 */
export function receiveFrames(transport: Transport, receivers: FrameReceivers): void {
  const { outgoing, incoming, notifications, sender } = receivers;

  /** Handles one message; resolves with the response owed for it, if any. */
  const handleMessage = (
    message: JSONRPCMessage,
    info: FrameInfo,
  ): Promise<JSONRPCResponse | undefined> | undefined => {
    if (!("method" in message)) {
      outgoing.receive(message);
      return undefined;
    }
    if ("id" in message) return incoming.dispatch(message, info);
    notifications.dispatch(message, info);
    return undefined;
  };

  const handleBatch = async (batch: readonly JSONRPCMessage[], info: FrameInfo) => {
    const pending = batch.map((message) => handleMessage(message, info));
    const responses: JSONRPCResponse[] = [...(info.rejected ?? [])];
    for (const response of await Promise.all(pending)) {
      if (response !== undefined) responses.push(response);
    }
    // JSON-RPC 2.0 section 6: nothing is returned when no response is owed.
    if (responses.length > 0) sender.sendQuietly(responses);
  };

  transport.onFrame((frame: Frame, info) => {
    if (isBatch(frame)) {
      void handleBatch(frame, info);
      return;
    }
    handleMessage(frame, info)?.then((response) => {
      // Transports route a response by its id; no relation needs to travel with it.
      if (response !== undefined) sender.sendQuietly(response);
    });
  });

  transport.onError((error) => {
    if (InvalidFrameError.isInstance(error)) sender.sendQuietly(error.response);
    if (LineTooLongError.isInstance(error)) {
      answerDroppedLine(error, outgoing, (response) => sender.sendQuietly(response));
    }
    receivers.report(error);
  });

  transport.onClose((event) => receivers.closed(event));
}

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
