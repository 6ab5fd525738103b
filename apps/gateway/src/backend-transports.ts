import type { Transport } from "@patchbay/jsonrpc-core";
import type { BackendConfig, BackendTransportFactory } from "@patchbay/router";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { FallbackClientTransport, SseClientTransport } from "@patchbay/transport-sse";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import type { Logger } from "./logger.js";

/**
 * The transports the stdio gateway reaches backends with: a child process over stdio, Streamable
 * HTTP, legacy HTTP+SSE, WebSocket (`ws://`, `wss://`), or `auto` (Streamable HTTP falling back to HTTP+SSE on a 4xx). A child's
 * stderr goes to the gateway's log.
 */
export function createBackendTransportFactory(logger: Logger): BackendTransportFactory {
  return (backend: BackendConfig): Transport => {
    switch (backend.transport) {
      case "stdio":
        return createStdioClientTransport({
          command: backend.command,
          args: backend.args,
          env: backend.env,
          name: backend.name,
          ...(backend.cwd === undefined ? {} : { cwd: backend.cwd }),
          ...(backend.maxMessageBytes === undefined
            ? {}
            : { maxLineBytes: backend.maxMessageBytes }),
          stderr: (line) => logger.info(`[${backend.name}] ${line}`),
          // Large results go on to the client as received, not parsed and serialized again.
          relayLargeResults: true,
        });
      case "http":
        return new StreamableHttpClientTransport({ url: backend.url, headers: backend.headers });
      case "sse":
        return new SseClientTransport({ url: backend.url, headers: backend.headers });
      case "ws":
        return createNodeWebSocketClientTransport({ url: backend.url, headers: backend.headers });
      case "auto":
        return new FallbackClientTransport({ url: backend.url, headers: backend.headers });
    }
  };
}
