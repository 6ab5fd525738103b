import type { Transport } from "@patchbay/jsonrpc-core";
import type { BackendConfig, BackendTransportFactory } from "@patchbay/router";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { FallbackClientTransport, SseClientTransport } from "@patchbay/transport-sse";
import { createStdioClientTransport } from "@patchbay/transport-stdio";

/**
 * How the proxy reaches backends: stdio children (lines up to `maxLineBytes`, so a result up to
 * `limits.maxResultBytes` fits), Streamable HTTP, legacy SSE, or `auto`. A child's stderr goes to
 * `onStderr`. A stdio child's large results (lines of 64 KiB and more) keep their bytes, which the
 * Streamable HTTP front writes on as they came.
 */
export function createProxyBackendTransports(options: {
  readonly maxLineBytes: number;
  readonly onStderr: (backend: string, line: string) => void;
}): BackendTransportFactory {
  return (backend: BackendConfig): Transport => {
    if (backend.transport === "stdio") {
      return createStdioClientTransport({
        command: backend.command,
        args: backend.args,
        env: backend.env,
        name: backend.name,
        maxLineBytes: options.maxLineBytes,
        ...(backend.cwd === undefined ? {} : { cwd: backend.cwd }),
        stderr: (line) => options.onStderr(backend.name, line),
        // Large results go on to the client as received, not parsed and serialized again.
        relayLargeResults: true,
      });
    }
    const remote = { url: backend.url, headers: backend.headers };
    if (backend.transport === "http") return new StreamableHttpClientTransport(remote);
    if (backend.transport === "sse") return new SseClientTransport(remote);
    return new FallbackClientTransport(remote);
  };
}
