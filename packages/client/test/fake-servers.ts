import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
  type Frame,
  JSONRPCError,
  type JSONRPCParams,
  type RequestHandler,
  type Transport,
} from "@patchbay/jsonrpc-core";

/** What a modern `server/discover` answers (2026-07-28). */
export const DISCOVER_RESULT = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
  instructions: "be kind",
  ttlMs: 0,
  cacheScope: "private",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "fake-modern", version: "9" } },
};

/** A hand-written server on a bare connection, recording every request it receives. */
export interface FakeServer {
  readonly clientSide: Transport;
  readonly server: Connection;
  /** Requests received, in order. */
  readonly received: { method: string; params: Record<string, unknown> }[];
  /** Every frame the client wrote. */
  readonly frames: Frame[];
  /** Resolves with the params of the next request of `method`. */
  next(method: string): Promise<Record<string, unknown>>;
  /** Answers `method` with `handler`, recording each request first. */
  handle(method: string, handler: RequestHandler): void;
}

/**
 * Starts a fake server. `discover` answers `server/discover`: a result, a thrown error, or
 * `"silent"` (never answers); `initialize` is answered as a 2025-11-25 server would.
 */
export async function startFakeServer(
  discover: Record<string, unknown> | JSONRPCError | "silent",
): Promise<FakeServer> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const frames: Frame[] = [];
  serverSide.onFrame((frame) => frames.push(frame));
  const server = createConnection(serverSide);
  const received: FakeServer["received"] = [];
  const waiters = new Map<string, ((params: Record<string, unknown>) => void)[]>();
  const record = (method: string, params: JSONRPCParams | undefined) => {
    const record = (params ?? {}) as Record<string, unknown>;
    received.push({ method, params: record });
    const queue = waiters.get(method);
    queue?.shift()?.(record);
  };
  server.setFallbackRequestHandler((params, context) => {
    record(context.method, params);
    throw new JSONRPCError(-32601, `Method not found: ${context.method}`);
  });
  server.handle("server/discover", (params) => {
    record("server/discover", params);
    if (discover === "silent") return new Promise(() => {});
    if (discover instanceof JSONRPCError) throw discover;
    return discover;
  });
  server.handle("initialize", (params) => {
    record("initialize", params);
    return {
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "fake-legacy", version: "1" },
    };
  });
  await server.start();
  return {
    clientSide,
    server,
    received,
    frames,
    handle(method, handler) {
      server.handle(method, (params, context) => {
        record(method, params);
        return handler(params, context);
      });
    },
    next: (method) =>
      new Promise((resolve) => {
        const queue = waiters.get(method) ?? [];
        queue.push(resolve);
        waiters.set(method, queue);
      }),
  };
}
