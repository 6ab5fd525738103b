import {
  type Frame,
  isBatch,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  RequestIdMap,
  type Transport,
  type TransportCloseEvent,
  type TransportTap,
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
  type RequestBooks,
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
  const context = createInstrumentContext(telemetry, options);
  const observeIncoming = createIncomingObserver(context);
  return tapTransport(transport, {
    incoming(frame) {
      observeIncoming(frame);
      return frame;
    },
    outgoing: createOutgoingTap(context, transport),
    error(error) {
      telemetry.record({
        event_type: EventTypes.transportError,
        status: "failure",
        ...context.fields,
        data: { message: error.message, name: error.name },
      });
    },
    closed(event) {
      recordClosed(telemetry, context.fields, [context.incoming, context.outgoing], event);
    },
  });
}

/** The labels of one direction's frame and notification series. */
type FrameLabels = { readonly direction: string; readonly backend: string | undefined };

/** One instrumented transport's settings and request books: what each frame reads. */
interface InstrumentContext {
  readonly telemetry: Telemetry;
  readonly books: RequestBooks;
  readonly propagate: boolean;
  /** The backend and source of its events. */
  readonly fields: { readonly backend?: string; readonly source?: string };
  /** Requests the peer sent, by id, until answered. */
  readonly incoming: PendingRequests;
  /** Requests sent to the peer, by id, until answered. */
  readonly outgoing: PendingRequests;
  readonly incomingLabels: FrameLabels;
  readonly outgoingLabels: FrameLabels;
  /** The revision the peer answered to an `initialize` sent here, when spans need it. */
  readonly negotiated: NegotiatedVersion | undefined;
}

/** The options with their defaults, and the request books, which hand spans what they read. */
function createInstrumentContext(
  telemetry: Telemetry,
  options: InstrumentTransportOptions,
): InstrumentContext {
  const fields = {
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
  return {
    telemetry,
    books: createRequestBooks(telemetry, fields, options.maxPending ?? 10_000, spanFields),
    propagate: options.propagate ?? true,
    fields,
    incoming: new RequestIdMap(),
    outgoing: new RequestIdMap(),
    incomingLabels: { direction: "incoming", backend: options.backend },
    outgoingLabels: { direction: "outgoing", backend: options.backend },
    negotiated,
  };
}

function countNotification(
  telemetry: Telemetry,
  labels: FrameLabels,
  message: JSONRPCMessage,
): void {
  if (isJSONRPCNotification(message)) {
    telemetry.metrics.notifications.inc({ ...labels, method: message.method });
  }
}

/** A frame from the peer: its requests start, its responses finish ours, its cancels end its own. */
function createIncomingObserver(context: InstrumentContext): (frame: Frame) => void {
  const { telemetry, negotiated, incomingLabels } = context;
  const { start, finish, cancel, sites } = context.books;
  const { incoming: incomingRequests, outgoing: outgoingRequests } = context;
  // Counted at the site (reported before each render) or, at a site no render reports, in a
  // series bound on first use: a direction no frame took shows no series.
  let incomingFrames: BoundCounter | undefined;
  const observeMessage = (message: JSONRPCMessage): void => {
    if (isJSONRPCRequest(message)) start(incomingRequests, "incoming", message);
    else if (isJSONRPCResponse(message)) {
      negotiated?.received(message);
      finish(outgoingRequests, message);
    } else {
      countNotification(telemetry, incomingLabels, message);
      cancel(incomingRequests, message);
    }
  };
  return (frame) => {
    if (sites.incoming.pulled) sites.incoming.frames += 1;
    else {
      incomingFrames ??= telemetry.metrics.frames.bind(incomingLabels);
      incomingFrames.inc();
    }
    // No array per frame: most frames are one message.
    if (isBatch(frame)) for (const message of frame) observeMessage(message);
    else observeMessage(frame);
  };
}

/**
 * A message to the peer: a request starts (noted in `started`) and carries this hop's trace
 * context, a response finishes the peer's request, a cancel ends ours. Returns what to send.
 */
function createOutgoingPreparer(
  context: InstrumentContext,
): (message: JSONRPCMessage, started: Started) => JSONRPCMessage {
  const { telemetry, negotiated, propagate, outgoingLabels } = context;
  const { start, finish, cancel } = context.books;
  const { incoming: incomingRequests, outgoing: outgoingRequests } = context;
  return (message, started) => {
    if (!isJSONRPCRequest(message)) {
      if (isJSONRPCResponse(message)) finish(incomingRequests, message);
      else {
        countNotification(telemetry, outgoingLabels, message);
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
}

/**
 * The tap's `outgoing`: prepares each message of a frame; a frame that started requests is sent
 * here, so that a failed send closes their books.
 */
function createOutgoingTap(
  context: InstrumentContext,
  transport: Transport,
): NonNullable<TransportTap["outgoing"]> {
  const { telemetry, outgoingLabels, outgoing: outgoingRequests } = context;
  const { sites } = context.books;
  const prepareOutgoing = createOutgoingPreparer(context);
  // Counted as incoming frames are (see `createIncomingObserver`).
  let outgoingFrames: BoundCounter | undefined;
  return (frame, sendOptions) => {
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
  };
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
