import { decodeValue } from "../codec/decode.js";
import { InvalidFrameError, TransportError } from "../errors/transport-errors.js";
import { ListenerSet, toError } from "../internal/listener-set.js";
import { type Frame, isBatch } from "../messages.js";
import type { FrameInfo, SendOptions, Transport, TransportCloseEvent } from "../transport.js";
import type { SdkTransportLike } from "./sdk-transport-like.js";

/**
 * Wraps a transport of the official SDK (stdio, Streamable HTTP, in-memory, ...) as a Patchbay
 * Transport. It takes over the SDK transport's `onmessage`/`onerror`/`onclose` callbacks.
 *
 * Incoming messages are checked with `decodeValue`; invalid ones are reported as InvalidFrameError.
 * A batch is sent message by message (SDK transports send no batches). The close event is emitted
 * once, `local` when `close()` was called here, else `remote`.
 */
export function fromSdkTransport(sdkTransport: SdkTransportLike): Transport {
  let started = false;
  let closing = false;
  let closePromise: Promise<void> | undefined;
  let closed = false;
  const errorListeners = new ListenerSet<[Error]>();
  const reportListenerError = (error: unknown) => errorListeners.emit(toError(error));
  const frameListeners = new ListenerSet<[Frame, FrameInfo]>(reportListenerError);
  const closeListeners = new ListenerSet<[TransportCloseEvent]>(reportListenerError);

  const emitClose = () => {
    if (closed) return;
    closed = true;
    closeListeners.emit({ initiator: closing ? "local" : "remote" });
  };

  sdkTransport.onmessage = (message, extra) => {
    const result = decodeValue(message);
    if (!result.ok) {
      errorListeners.emit(new InvalidFrameError("Received an invalid message", result.response));
      return;
    }
    const info: FrameInfo = extra === undefined ? {} : { extra: extra as Record<string, unknown> };
    frameListeners.emit(result.frame, info);
  };
  sdkTransport.onerror = (error) => errorListeners.emit(error);
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
    async start() {
      if (started) return;
      started = true;
      await sdkTransport.start();
    },
    async send(frame, options) {
      if (closed) throw new TransportError("Cannot send: the transport is closed");
      if (!isBatch(frame)) return sendOne(frame, options);
      for (const message of frame) await sendOne(message, options);
    },
    close() {
      if (closed) return Promise.resolve();
      closing = true;
      closePromise ??= sdkTransport.close().finally(
        // Some SDK transports do not call onclose from close(); the event is owed either way.
        emitClose,
      );
      return closePromise;
    },
    onFrame: (listener) => frameListeners.add(listener),
    onError: (listener) => errorListeners.add(listener),
    onClose: (listener) => closeListeners.add(listener),
  };
}
