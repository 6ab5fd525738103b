import type { Connection, ConnectionOptions } from "../src/connection/connection-types.js";
import { createConnection } from "../src/connection/create-connection.js";
import { createMemoryTransportPair } from "../src/memory/memory-transport.js";
import type { Frame } from "../src/messages.js";
import type { Transport } from "../src/transport.js";
import { createCollector } from "./collector.js";

/** A Connection whose peer is a bare transport that the test drives frame by frame. */
export interface RawPeer {
  connection: Connection;
  peer: Transport;
  errors: Error[];
  /** Resolves once the connection has reported `count` errors. */
  waitForErrors(count: number): Promise<Error[]>;
  /** Resolves with the next frame the connection sends (already sent ones are returned first). */
  nextFrame(): Promise<Frame>;
  /** Frames the connection sent that nextFrame() has not returned yet. */
  unread: Frame[];
}

export async function createRawPeer(options: ConnectionOptions = {}): Promise<RawPeer> {
  const [local, peer] = createMemoryTransportPair();
  const connection = createConnection(local, options);
  const errors = createCollector<Error>();
  connection.onError((error) => errors.push(error));
  const unread: Frame[] = [];
  const waiting: ((frame: Frame) => void)[] = [];
  peer.onFrame((frame) => {
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else unread.push(frame);
  });
  await Promise.all([connection.start(), peer.start()]);
  return {
    connection,
    peer,
    errors: errors.items,
    waitForErrors: (count) => errors.waitFor(count),
    unread,
    nextFrame() {
      const frame = unread.shift();
      if (frame !== undefined) return Promise.resolve(frame);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

/** Two connections over a memory pair, both started. */
export async function createConnectionPair(
  clientOptions: ConnectionOptions = {},
  serverOptions: ConnectionOptions = {},
) {
  const [clientTransport, serverTransport] = createMemoryTransportPair();
  const client = createConnection(clientTransport, clientOptions);
  const server = createConnection(serverTransport, serverOptions);
  const serverErrors: Error[] = [];
  server.onError((error) => serverErrors.push(error));
  await Promise.all([client.start(), server.start()]);
  return { client, server, serverErrors };
}

/** Lets queued microtasks (memory transport deliveries, promise reactions) run. */
export async function flushMicrotasks(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round++) await Promise.resolve();
}
