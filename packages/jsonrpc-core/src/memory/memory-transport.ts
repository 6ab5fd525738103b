import { TransportError } from "../errors/transport-errors.js";
import { ListenerSet, toError } from "../internal/listener-set.js";
import type { Frame } from "../messages.js";
import type { FrameInfo, Transport, TransportCloseEvent, Unsubscribe } from "../transport.js";

const NO_INFO: FrameInfo = Object.freeze({});

/**
 * One end of an in-memory pair. Frames are passed by reference (no serialization) and delivered in
 * a microtask, in send order, so nothing re-enters the sender's call stack.
 */
class MemoryTransport implements Transport {
  peer: MemoryTransport | undefined;
  #started = false;
  #closed = false;
  #queue: Frame[] = [];
  readonly #errorListeners = new ListenerSet<[Error]>();
  readonly #frameListeners = new ListenerSet<[Frame, FrameInfo]>((error) =>
    this.#errorListeners.emit(toError(error)),
  );
  readonly #closeListeners = new ListenerSet<[TransportCloseEvent]>((error) =>
    this.#errorListeners.emit(toError(error)),
  );

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const queued = this.#queue;
    this.#queue = [];
    for (const frame of queued) this.#frameListeners.emit(frame, NO_INFO);
  }

  async send(frame: Frame): Promise<void> {
    if (this.#closed) throw new TransportError("Cannot send: the memory transport is closed");
    const peer = this.peer;
    queueMicrotask(() => peer?.receive(frame));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#end("local");
    const peer = this.peer;
    // Queued behind frames already sent, so the peer receives them before its close event.
    queueMicrotask(() => peer?.closeFromPeer());
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#frameListeners.add(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#errorListeners.add(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#closeListeners.add(listener);
  }

  receive(frame: Frame): void {
    if (this.#closed) return;
    if (this.#started) this.#frameListeners.emit(frame, NO_INFO);
    else this.#queue.push(frame);
  }

  closeFromPeer(): void {
    if (!this.#closed) this.#end("remote");
  }

  #end(initiator: "local" | "remote"): void {
    this.#closed = true;
    this.#queue = [];
    this.#closeListeners.emit({ initiator });
  }
}

/**
 * Creates two linked in-memory transports, `[client, server]`: what one sends, the other receives.
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
