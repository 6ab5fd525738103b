import {
  type Frame,
  isBatch,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  type Transport,
  type TransportCloseEvent,
  tapTransport,
} from "@patchbay/jsonrpc-core";
import { EventTypes } from "./event-types.js";
import type { BoundCounter } from "./metric-registry.js";
import { NegotiatedVersion } from "./negotiated-version.js";
import { NOOP_OPEN_TELEMETRY_BRIDGE } from "./open-telemetry-bridge.js";
import {
  createRequestBooks,
  drainPending,
  outcomeOfError,
  type PendingRequests,
} from "./request-books.js";
import type { Telemetry } from "./telemetry.js";
import {
  copyRecord,
  injectTraceContext,
  injectTraceContextInPlace,
  isOwnedHandOff,
} from "./trace-context.js";

/** Options of {@link instrumentTransport}. */
export interface InstrumentTransportOptions {
  /** Backend at the other end, for labels and events (for a backend-facing transport). */
  readonly backend?: string;
  /** Event source (default: the telemetry's). */
  readonly source?: string;
  /**
   * Write this hop's trace context into `_meta` of outgoing requests whose params are an object or
   * absent (default true), so the peer continues the trace.
   */
  readonly propagate?: boolean;
  /** Requests tracked at once per direction; past it new ones go untimed (default 10000). */
  readonly maxPending?: number;
  /**
   * The MCP revision agreed with the peer, for spans (`mcp.protocol.version`); default: the one the
   * peer answered to an `initialize` sent on this transport.
   */
  readonly protocolVersion?: () => string | undefined;
  /** `network.transport` of its spans: `pipe` for stdio, `tcp` for HTTP and WebSocket. */
  readonly networkTransport?: string;
}

/**
 * The ids of the requests one send started tracking (no array unless a batch started several): a
 * literal per send, no constructor.
 */
interface Started {
  first: JSONRPCId | undefined;
  more: JSONRPCId[] | undefined;
}

function startedIds(started: Started): JSONRPCId[] {
  return started.first === undefined ? [] : [started.first, ...(started.more ?? [])];
}

/**
 * Wraps a Transport so every request crossing it (either way) is traced, timed, counted and
 * recorded, matched with its response by id. Listeners subscribe to the wrapper exactly as to the
 * original; frames are delivered unchanged, and outgoing requests gain `_meta.traceparent` unless
 * `propagate` is false. Use it or `instrumentConnection` on a channel, not both.
 */
export function instrumentTransport(
  transport: Transport,
  telemetry: Telemetry,
  options: InstrumentTransportOptions = {},
): Transport {
  const incomingRequests: PendingRequests = new Map();
  const outgoingRequests: PendingRequests = new Map();
  const maxPending = options.maxPending ?? 10_000;
  const propagate = options.propagate ?? true;
  const context = {
    ...(options.backend === undefined ? {} : { backend: options.backend }),
    ...(options.source === undefined ? {} : { source: options.source }),
  };

  // What only spans read: handed to each request's start only when spans may be recorded.
  // Without a `protocolVersion` given, the revision is read from the `initialize` this side sends.
  const spansOn = telemetry.openTelemetry !== NOOP_OPEN_TELEMETRY_BRIDGE;
  const negotiated =
    spansOn && options.protocolVersion === undefined ? new NegotiatedVersion() : undefined;
  const spanFields = !spansOn
    ? undefined
    : negotiated === undefined
      ? options
      : { ...options, protocolVersion: negotiated.read };
  const { start, cancel, finish, sites } = createRequestBooks(
    telemetry,
    context,
    maxPending,
    spanFields,
  );

  const incomingLabels = { direction: "incoming", backend: options.backend };
  const outgoingLabels = { direction: "outgoing", backend: options.backend };
  // Counted at the site (reported before each render) or, at a site no render reports, in a
  // series bound on first use: a direction no frame took shows no series.
  let incomingFrames: BoundCounter | undefined;
  let outgoingFrames: BoundCounter | undefined;
  const countNotification = (labels: typeof incomingLabels, message: JSONRPCMessage): void => {
    if (isJSONRPCNotification(message)) {
      telemetry.metrics.notifications.inc({ ...labels, method: message.method });
    }
  };

  const observeMessage = (message: JSONRPCMessage): void => {
    if (isJSONRPCRequest(message)) start(incomingRequests, "incoming", message);
    else if (isJSONRPCResponse(message)) {
      negotiated?.received(message);
      finish(outgoingRequests, message);
    } else {
      countNotification(incomingLabels, message);
      cancel(incomingRequests, message);
    }
  };
  const observeIncoming = (frame: Frame): void => {
    if (sites.incoming.pulled) sites.incoming.frames += 1;
    else {
      incomingFrames ??= telemetry.metrics.frames.bind(incomingLabels);
      incomingFrames.inc();
    }
    // No array per frame: most frames are one message.
    if (isBatch(frame)) for (const message of frame) observeMessage(message);
    else observeMessage(frame);
  };

  const prepareOutgoing = (message: JSONRPCMessage, started: Started): JSONRPCMessage => {
    if (!isJSONRPCRequest(message)) {
      if (isJSONRPCResponse(message)) finish(incomingRequests, message);
      else {
        countNotification(outgoingLabels, message);
        cancel(outgoingRequests, message);
      }
      return message;
    }
    negotiated?.sent(message);
    const tracker = start(outgoingRequests, "outgoing", message);
    if (tracker !== undefined) {
      if (started.first === undefined) started.first = message.id;
      else {
        started.more ??= [];
        started.more.push(message.id);
      }
    }
    if (tracker === undefined || !propagate || Array.isArray(message.params)) return message;
    if (isOwnedHandOff(message.params)) {
      // Made for this send and read by nothing else: no copy of the params or the message.
      injectTraceContextInPlace(message.params as object, tracker.trace);
      return message;
    }
    const params =
      message.params === undefined
        ? injectTraceContext(undefined, tracker.trace)
        : injectTraceContext(message.params, tracker.trace);
    const prepared = copyRecord(message);
    prepared.params = params;
    return prepared as unknown as JSONRPCMessage;
  };

  return tapTransport(transport, {
    incoming(frame) {
      observeIncoming(frame);
      return frame;
    },
    outgoing(frame, sendOptions) {
      if (sites.outgoing.pulled) sites.outgoing.frames += 1;
      else {
        outgoingFrames ??= telemetry.metrics.frames.bind(outgoingLabels);
        outgoingFrames.inc();
      }
      const started: Started = { first: undefined, more: undefined };
      let sent: Promise<void>;
      try {
        const prepared = isBatch(frame)
          ? frame.map((message) => prepareOutgoing(message, started))
          : prepareOutgoing(frame, started);
        // A frame that starts no request is sent by the tap, on the transport's own promise.
        if (started.first === undefined) return prepared;
        sent = transport.send(prepared, sendOptions);
      } catch (error) {
        if (started.first === undefined) throw error;
        sent = Promise.reject(error);
      }
      return sent.then(undefined, (error: unknown) => {
        // The peer never saw these requests: close their books as failed sends.
        for (const id of startedIds(started)) {
          outgoingRequests.get(id)?.end(outcomeOfError(error));
          outgoingRequests.delete(id);
        }
        throw error;
      });
    },
    error(error) {
      telemetry.record({
        event_type: EventTypes.transportError,
        status: "failure",
        ...context,
        data: { message: error.message, name: error.name },
      });
    },
    closed(event) {
      recordClosed(telemetry, context, [incomingRequests, outgoingRequests], event);
    },
  });
}

/** The close of an instrumented transport: its pending requests end as closed, and the event. */
function recordClosed(
  telemetry: Telemetry,
  context: { readonly backend?: string; readonly source?: string },
  books: readonly PendingRequests[],
  event: TransportCloseEvent,
): void {
  const closed = { outcome: "closed", error: { message: "transport closed" } } as const;
  const trackers = books.flatMap((pending) => drainPending(pending));
  for (const tracker of trackers) tracker.end(closed);
  telemetry.record({
    event_type: EventTypes.transportClosed,
    status: event.initiator === "error" ? "failure" : "success",
    ...context,
    data: {
      initiator: event.initiator,
      ...(event.error === undefined ? {} : { error: event.error.message }),
      ...(event.details === undefined ? {} : { details: event.details }),
    },
  });
}
