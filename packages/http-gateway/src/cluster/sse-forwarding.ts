import type { IncomingMessage, ServerResponse } from "node:http";
import { decode, InvalidFrameError, type JSONRPCErrorResponse } from "@patchbay/jsonrpc-core";
import {
  BodyTooLargeError,
  DEFAULT_MAX_BATCH_SIZE,
  HTTP_ERROR_CODE,
  hasContentType,
  headerValue,
  readBody,
  SESSION_NOT_FOUND_CODE,
  SESSION_NOT_FOUND_MESSAGE,
  writeJsonError,
} from "@patchbay/transport-http";
import {
  createSseHandler,
  type SseHandler,
  type SseHandlerOptions,
  type SseServerTransport,
} from "@patchbay/transport-sse";
import { ANONYMOUS } from "../admission/admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ClusterSseSessions, ForwardedSseMessage, GatewayCluster } from "./cluster.js";

/** A legacy SSE session whose stream this replica holds. */
interface HeldSseSession {
  readonly owner: TokenIdentity;
  readonly profile: string;
  transport?: SseServerTransport;
}

/** What a forwarded POST carries besides its session, owner and profile. */
type ForwardedBody = Omit<ForwardedSseMessage, "sessionId" | "owner" | "profile">;

/** The gateway's side of legacy HTTP+SSE sessions shared between replicas. */
export interface SseForwarding {
  /** A GET `/sse` was admitted: records this replica as the holder before the stream opens. */
  prepare(sessionId: string, owner: TokenIdentity, profile: string): Promise<void>;
  /** The session's stream opened here; its record is deleted when it closes. */
  opened(transport: SseServerTransport): void;
  /**
   * The profile's SSE handler, except that a POST naming a session whose stream is not held here
   * is checked against the holder record as the holder would check it, read within this
   * replica's limits and forwarded to the holder (202).
   */
  wrap(
    handler: SseHandler,
    profile: string,
    identityOf: (request: IncomingMessage) => TokenIdentity,
  ): SseHandler;
  /** Stops hearing forwarded messages. */
  close(): void;
}

/** The forwarding of a gateway whose cluster shares legacy SSE sessions; else `undefined`. */
export function sseForwardingOf(
  cluster: GatewayCluster | undefined,
  maxBodyBytes: number,
  onWarning: ((message: string) => void) | undefined,
): SseForwarding | undefined {
  if (cluster?.sse === undefined) return undefined;
  return createSseForwarding({
    sse: cluster.sse,
    replicaId: cluster.replicaId,
    maxBodyBytes,
    onWarning: onWarning ?? (() => {}),
  });
}

/**
 * The legacy SSE handler of one profile (`""`: the default endpoint); with `forwarding`, its
 * streams are recorded as held here and POSTs for streams held elsewhere are forwarded.
 */
export function createGatewaySseHandler(
  handlerOptions: Omit<SseHandlerOptions, "onSession" | "prepareSession">,
  context: {
    readonly profile: string;
    readonly forwarding: SseForwarding | undefined;
    readonly identityOf: (request: IncomingMessage) => TokenIdentity | undefined;
  },
  onSession: SseHandlerOptions["onSession"],
): SseHandler {
  const { forwarding, profile } = context;
  if (forwarding === undefined) return createSseHandler({ ...handlerOptions, onSession });
  const handler = createSseHandler({
    ...handlerOptions,
    prepareSession: (sessionId, session) =>
      forwarding.prepare(sessionId, session.authInfo as TokenIdentity, profile),
    onSession: (transport, session) => {
      forwarding.opened(transport);
      return onSession(transport, session);
    },
  });
  return forwarding.wrap(handler, profile, (request) => context.identityOf(request) ?? ANONYMOUS);
}

/** Creates the forwarding of one gateway; `maxBodyBytes` bounds what a POST may carry here. */
export function createSseForwarding(options: {
  readonly sse: ClusterSseSessions;
  /** This replica's id: a record naming it for a session not open here is stale. */
  readonly replicaId: string;
  readonly maxBodyBytes: number;
  readonly onWarning: (message: string) => void;
}): SseForwarding {
  const { sse, onWarning } = options;
  const held = new Map<string, HeldSseSession>();
  const off = sse.onForwarded((message) => deliver(message));

  function deliver(message: ForwardedSseMessage): void {
    const session = held.get(message.sessionId);
    const transport = session?.transport;
    // The sender checked owner and profile against the record; a mismatch here is a stale record.
    if (
      transport === undefined ||
      transport.closed ||
      session?.owner.name !== message.owner ||
      session.profile !== message.profile
    ) {
      onWarning(`legacy SSE session ${message.sessionId} is not open here: a message was dropped`);
      return;
    }
    if (message.invalid === true) {
      const response = message.frame as JSONRPCErrorResponse;
      transport.report(new InvalidFrameError("Received text that is not valid JSON-RPC", response));
      return;
    }
    transport.deliver(message.frame, {
      ...(message.rejected === undefined ? {} : { rejected: message.rejected }),
      extra: { sessionId: message.sessionId, authInfo: session.owner },
    });
  }

  /** Answers a POST for a session held elsewhere (or nowhere), as the holder would. */
  async function post(
    request: IncomingMessage,
    response: ServerResponse,
    sessionId: string,
    identity: TokenIdentity,
    profile: string,
  ): Promise<void> {
    let holder: Awaited<ReturnType<ClusterSseSessions["holderOf"]>>;
    try {
      holder = await sse.holderOf(sessionId);
    } catch {
      return storeUnavailable(response);
    }
    // Another token's or another profile's session does not exist for this request, as on the
    // holder; nor does one whose record names this replica (the session is not open here).
    if (
      holder === undefined ||
      holder.owner !== identity.name ||
      holder.profile !== profile ||
      holder.replicaId === options.replicaId
    ) {
      return notFound(response);
    }
    const target = holder.replicaId;
    const send = async (body: ForwardedBody) => {
      const sent = await sse.forward(target, { sessionId, owner: identity.name, profile, ...body });
      // The holder is gone, and the stream with it (the legacy transport cannot resume).
      if (!sent) await sse.release(sessionId).catch(() => {});
      return sent;
    };
    try {
      await readAndSend(request, response, options.maxBodyBytes, send);
    } catch (error) {
      if (response.headersSent) throw error;
      storeUnavailable(response);
    }
  }

  return {
    async prepare(sessionId, owner, profile) {
      held.set(sessionId, { owner, profile });
      try {
        await sse.hold(sessionId, owner.name, profile);
      } catch (error) {
        held.delete(sessionId);
        throw new Error(`the shared session store cannot be reached: ${String(error)}`);
      }
    },
    opened(transport) {
      const { sessionId } = transport;
      const session = held.get(sessionId);
      if (session !== undefined) session.transport = transport;
      transport.onClose(() => {
        held.delete(sessionId);
        sse.release(sessionId).catch((error: unknown) => {
          onWarning(`legacy SSE session ${sessionId}: its record stays until it expires: ${error}`);
        });
      });
    },
    wrap(handler, profile, identityOf) {
      const wrapped = (
        request: IncomingMessage,
        response: ServerResponse,
        parsedBody?: unknown,
      ) => {
        const sessionId = new URL(request.url ?? "/", "http://gateway").searchParams.get(
          "sessionId",
        );
        if (request.method !== "POST" || sessionId === null || handler.getSession(sessionId)) {
          return handler(request, response, parsedBody);
        }
        return post(request, response, sessionId, identityOf(request), profile);
      };
      return Object.defineProperties(wrapped, {
        close: { value: () => handler.close() },
        sessionCount: { get: () => handler.sessionCount },
        getSession: { value: (sessionId: string) => handler.getSession(sessionId) },
      }) as SseHandler;
    },
    close() {
      off();
    },
  };
}

/**
 * Reads a forwarded POST as the holder's transport would (content type, body size, JSON-RPC,
 * batch size) and hands it to `send`: 202 once sent, 404 when the holder no longer listens.
 */
async function readAndSend(
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes: number,
  send: (body: ForwardedBody) => Promise<boolean>,
): Promise<void> {
  if (!hasContentType(headerValue(request, "content-type"), "application/json")) {
    const message = "Unsupported Media Type: Content-Type must be application/json";
    return writeJsonError(response, 415, HTTP_ERROR_CODE, message);
  }
  let text: string;
  try {
    text = await readBody(request, maxBodyBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const headers: Record<string, string> = error.drained ? {} : { connection: "close" };
    return writeJsonError(response, 413, HTTP_ERROR_CODE, error.message, headers);
  }
  const decoded = decode(text);
  if (!decoded.ok) {
    // Answered here; the holder reports it to the session, whose Connection sends it on the stream.
    await send({ frame: decoded.response, invalid: true });
    response.writeHead(400, { "content-type": "application/json" });
    response.end(JSON.stringify(decoded.response));
    return;
  }
  const size = Array.isArray(decoded.frame) ? decoded.frame.length + decoded.rejected.length : 1;
  if (size > DEFAULT_MAX_BATCH_SIZE) {
    const message = `Payload Too Large: a batch of ${size} messages exceeds the limit of ${DEFAULT_MAX_BATCH_SIZE} (maxBatchSize)`;
    return writeJsonError(response, 413, HTTP_ERROR_CODE, message);
  }
  const rejected = decoded.rejected.length > 0 ? { rejected: decoded.rejected } : {};
  if (!(await send({ frame: decoded.frame, ...rejected }))) return notFound(response);
  response.writeHead(202, { "content-type": "text/plain" });
  response.end("Accepted");
}

function notFound(response: ServerResponse): void {
  writeJsonError(response, 404, SESSION_NOT_FOUND_CODE, SESSION_NOT_FOUND_MESSAGE);
}

function storeUnavailable(response: ServerResponse): void {
  const message = "the shared session store cannot be reached; try again shortly";
  writeJsonError(response, 503, HTTP_ERROR_CODE, message, { "retry-after": "1" });
}
