import { decodeValue } from "../codec/codec.js";
import { ErrorCode } from "../errors/error-code.js";
import { InvalidFrameError, TransportError } from "../errors/transport-errors.js";
import { toError } from "../internal/listener-set.js";
import { isBatch, type JSONRPCErrorResponse } from "../messages.js";
import type { FrameInfo, SendOptions, Transport } from "../transport.js";
import { TransportEvents } from "../transport-kit.js";
import type { SdkTransportLike } from "./sdk-transport-like.js";

/**
 * Wraps a transport of the official SDK (stdio, Streamable HTTP, in-memory, ...) as a Patchbay
 * Transport. It takes over the SDK transport's `onmessage`/`onerror`/`onclose` callbacks, so it must
 * be given a transport that nothing else uses and that was not started: an SDK transport with an
 * `onmessage` already set is refused with a `TypeError`, and a failing `start()` (the SDK's transports
 * throw on a second one) rejects with a `TransportError` that says so.
 *
 * Incoming messages are checked with `decodeValue`; invalid ones are reported as InvalidFrameError,
 * and so are the SDK's own reports of unparsable text (its `SyntaxError`, -32700) and of JSON that
 * is not JSON-RPC (its schema error, -32600). Messages that arrive before `start()` are held until
 * then. A batch is sent message by message (SDK transports send no batches). The close event is
 * emitted once, `local` when `close()` was called here, else `remote`.
 */
export function fromSdkTransport(sdkTransport: SdkTransportLike): Transport {
  if (sdkTransport.onmessage !== undefined) {
    throw new TypeError(
      "fromSdkTransport: the SDK transport already has an onmessage handler (it is connected to an SDK Client or Server, or wrapped already); give it a fresh, unstarted transport",
    );
  }
  let started: Promise<void> | undefined;
  let closing = false;
  let closePromise: Promise<void> | undefined;
  const events = new TransportEvents();

  const emitClose = () => {
    events.emitClose({ initiator: closing ? "local" : "remote" });
  };

  sdkTransport.onmessage = (message, extra) => {
    const result = decodeValue(message);
    if (!result.ok) {
      events.emitError(new InvalidFrameError("Received an invalid message", result.response));
      return;
    }
    const info: FrameInfo = extra === undefined ? {} : { extra: extra as Record<string, unknown> };
    events.emitFrame(result.frame, info);
  };
  sdkTransport.onerror = (error) => events.emitError(fromSdkError(error));
  sdkTransport.onclose = emitClose;

  const sendOne = async (
    message: Parameters<SdkTransportLike["send"]>[0],
    options?: SendOptions,
  ) => {
    try {
      // The SDK's send options spell the relation the same way.
      await (options?.relatedRequestId === undefined
        ? sdkTransport.send(message)
        : sdkTransport.send(message, { relatedRequestId: options.relatedRequestId }));
    } catch (error) {
      throw new TransportError("The SDK transport failed to send", { cause: error });
    }
  };

  return {
    start() {
      started ??= startSdkTransport(sdkTransport).then(() => events.start());
      return started;
    },
    async send(frame, options) {
      if (events.closed) throw new TransportError("Cannot send: the transport is closed");
      if (!isBatch(frame)) return sendOne(frame, options);
      for (const message of frame) await sendOne(message, options);
    },
    close() {
      if (events.closed) return Promise.resolve();
      closing = true;
      closePromise ??= sdkTransport.close().finally(
        // Some SDK transports do not call onclose from close(); the event is owed either way.
        emitClose,
      );
      return closePromise;
    },
    onFrame: (listener) => events.onFrame(listener),
    onError: (listener) => events.onError(listener),
    onClose: (listener) => events.onClose(listener),
  };
}

async function startSdkTransport(sdkTransport: SdkTransportLike): Promise<void> {
  try {
    await sdkTransport.start();
  } catch (error) {
    throw new TransportError(
      `The SDK transport failed to start (${toError(error).message}); fromSdkTransport needs a transport that was not started yet`,
      { cause: error },
    );
  }
}

/**
 * The SDK reports text it could not read through `onerror`: JSON.parse's `SyntaxError` for text that
 * is not JSON, its zod schema's error for JSON that is not a JSON-RPC message. Both become the
 * InvalidFrameError a Connection answers (JSON-RPC 2.0 section 5.1: -32700 and -32600, id null).
 */
function fromSdkError(error: Error): Error {
  if (error.name === "SyntaxError") {
    return new InvalidFrameError(
      "Received text that is not JSON",
      nullIdError(ErrorCode.ParseError, "Parse error", error.message),
      { cause: error },
    );
  }
  if (error.name === "ZodError" && Array.isArray((error as { issues?: unknown }).issues)) {
    return new InvalidFrameError(
      "Received JSON that is not a JSON-RPC message",
      nullIdError(ErrorCode.InvalidRequest, "Invalid Request", error.message),
      { cause: error },
    );
  }
  return error;
}

function nullIdError(code: number, message: string, data: string): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id: null, error: { code, message, data } };
}
