import {
  type Frame,
  type FrameInfo,
  type SendOptions,
  type Transport,
  type TransportCloseEvent,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import type { AdmittedFrame, RefusedRequest } from "./frame-admission.js";

/**
 * Wraps the transport of a connection whose entry was admitted (a WebSocket) so that each incoming
 * frame is admitted too before anyone hears it: `admit` decides, the refused requests are answered
 * here (and reported to `onRefused`), the rest goes on in arrival order.
 */
export function admitEachFrame(
  inner: Transport,
  admit: (frame: Frame, info: FrameInfo) => Promise<AdmittedFrame>,
  onRefused: (refused: RefusedRequest) => void,
): Transport {
  return new FrameAdmittedTransport(inner, admit, onRefused);
}

class FrameAdmittedTransport implements Transport {
  readonly #inner: Transport;
  readonly #events = new TransportEvents();
  /** Frames are admitted one after another (a shared limiter answers asynchronously). */
  #admitting: Promise<void> = Promise.resolve();

  constructor(
    inner: Transport,
    admit: (frame: Frame, info: FrameInfo) => Promise<AdmittedFrame>,
    onRefused: (refused: RefusedRequest) => void,
  ) {
    this.#inner = inner;
    inner.onFrame((frame, info) => {
      this.#admitting = this.#admitting
        .then(() => admit(frame, info))
        .then((admitted) => {
          for (const refused of admitted.refused) onRefused(refused);
          for (const answer of admitted.answers) inner.send(answer).catch(() => {});
          if (admitted.frame !== undefined) this.#events.emitFrame(admitted.frame, admitted.info);
        })
        .catch((error: unknown) => this.#events.emitError(toError(error)));
    });
    inner.onError((error) => this.#events.emitError(error));
    inner.onClose((event) => this.#events.emitClose(event));
  }

  start(): Promise<void> {
    this.#events.start();
    return this.#inner.start();
  }

  send(frame: Frame, options?: SendOptions): Promise<void> {
    return this.#inner.send(frame, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#events.onClose(listener);
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
