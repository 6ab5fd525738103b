import { TransportError } from "../errors/transport-errors.js";
import type { Frame } from "../messages.js";
import type {
  FrameInfo,
  SendOptions,
  Transport,
  TransportCloseEvent,
  Unsubscribe,
} from "../transport.js";
import { TransportEvents } from "../transport-kit.js";

const NO_INFO: FrameInfo = Object.freeze({});

/**
 * One end of an in-memory pair. Frames are passed by reference (no serialization) and delivered in
 * a microtask, in send order, so nothing re-enters the sender's call stack.
 */
class MemoryTransport implements Transport {
  peer: MemoryTransport | undefined;
  readonly #events = new TransportEvents();

  async start(): Promise<void> {
    this.#events.start();
  }

  async send(frame: Frame, options?: SendOptions): Promise<void> {
    if (this.#events.closed)
      throw new TransportError("Cannot send: the memory transport is closed");
    const peer = this.peer;
    // The relation travels as it would on a channel per request: the peer learns which of its own
    // requests the frame belongs to (both ends see the same ids).
    const related = options?.relatedRequestId;
    const info = related === undefined ? NO_INFO : { relatedRequestId: related };
    queueMicrotask(() => peer?.receive(frame, info));
  }

  async close(): Promise<void> {
    if (this.#events.closed) return;
    this.#end("local");
    const peer = this.peer;
    // Queued behind frames already sent, so the peer receives them before its close event.
    queueMicrotask(() => peer?.closeFromPeer());
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

  receive(frame: Frame, info: FrameInfo): void {
    this.#events.emitFrame(frame, info);
  }

  closeFromPeer(): void {
    this.#end("remote");
  }

  #end(initiator: "local" | "remote"): void {
    this.#events.emitClose({ initiator });
  }
}

/**
 * Creates two linked in-memory transports, `[client, server]`: what one sends, the other receives,
 * with the sender's `relatedRequestId` as the receiver's `FrameInfo.relatedRequestId`.
 * Frames that arrive before `start()` are queued (and dropped if the transport closes first).
 * Closing either end closes both, with exactly one close event on each (`local` on the end that
 * called `close()`, `remote` on the other).
 */
export function createMemoryTransportPair(): [client: Transport, server: Transport] {
  const client = new MemoryTransport();
  const server = new MemoryTransport();
  client.peer = server;
  server.peer = client;
  return [client, server];
}
