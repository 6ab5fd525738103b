import { InvalidFrameError, LineTooLongError } from "../errors/transport-errors.js";
import { type Frame, isBatch, type JSONRPCMessage, type JSONRPCResponse } from "../messages.js";
import type { FrameInfo, Transport, TransportCloseEvent } from "../transport.js";
import { answerDroppedLine } from "./dropped-line.js";
import type { FrameSender } from "./frame-sender.js";
import type { IncomingRequests } from "./incoming-requests.js";
import type { NotificationDispatch } from "./notification-dispatch.js";
import type { OutgoingRequests } from "./outgoing-requests.js";

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
