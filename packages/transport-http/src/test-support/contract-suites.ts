import type { Frame, FrameInfo, Transport, TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { StreamableHttpClientTransport } from "../streamable-http-client-transport.js";
import type {
  ResponseMode,
  StreamableHttpServerTransport,
} from "../streamable-http-server-transport.js";
import { type MountKind, mountEndpoint } from "./endpoint-mounts.js";
import { initializeRequest, waitUntil } from "./http-fixtures.js";
import { StatelessFacade } from "./stateless-facade.js";

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The contract's TransportPair, written out: this module is in src/, where only test files may
 * import @patchbay/contract-tests (tests/workspace checks the layers).
 */
interface ContractPair {
  readonly client: Transport;
  readonly server: Transport;
  dispose(): Promise<void>;
}
/**
 * The suite checks that the transport carries batches; which revisions may send them (the default
 * `by-revision` policy) is tested in streamable-http-post.test.ts.
 */
const BATCHES = "accept";

const unordered = {
  clientToServer: {
    unsupported: "every client frame is its own POST; concurrent POSTs may be handled in any order",
  },
};
const noInvalidText = {
  unsupported:
    "the server handler answers text that is not JSON-RPC itself with HTTP 400 (tested in streamable-http-handler.test.ts); it never reaches the session transport",
};

/** A stateful pair: a session is opened (initialize, initialized, GET stream) before the suite starts. */
async function createStatefulPair(
  kind: MountKind,
  responseMode: ResponseMode,
): Promise<ContractPair> {
  let resolveServer: (transport: StreamableHttpServerTransport) => void = () => {};
  const serverReady = new Promise<StreamableHttpServerTransport>((resolve) => {
    resolveServer = resolve;
  });
  const endpoint = await mountEndpoint(kind, {
    responseMode,
    retryIntervalMs: 0,
    maxBodyBytes: MAX_BODY_BYTES,
    maxResponseBytes: 2 * MAX_BODY_BYTES,
    batches: BATCHES,
    onSession: async (transport) => {
      // Answer the handshake, then hand the transport to the suite with no listener of ours left.
      const unsubscribe = transport.onFrame((frame) => {
        const message = frame as { id?: number; method?: string };
        if (message.method === "initialize") {
          unsubscribe();
          void transport.send({
            jsonrpc: "2.0",
            id: message.id as number,
            result: {
              protocolVersion: "2025-11-25",
              capabilities: {},
              serverInfo: { name: "c", version: "0" },
            },
          });
        }
      });
      await transport.start();
      resolveServer(transport);
    },
  });
  const client = new StreamableHttpClientTransport({
    url: endpoint.url,
    fetch: endpoint.fetch,
    reconnect: { initialDelayMs: 0 },
  });
  let initialized = false;
  const unsubscribe = client.onFrame(() => {
    initialized = true;
  });
  await client.start();
  await client.send(initializeRequest("contract-init"));
  const server = await serverReady;
  await waitUntil(() => initialized);
  unsubscribe();
  const seen: Frame[] = [];
  const stopSeeing = server.onFrame((frame) => seen.push(frame));
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await waitUntil(() => server.hasStandaloneStream && seen.length === 1);
  stopSeeing();
  return {
    client,
    server,
    dispose: () => endpoint.dispose(),
  };
}

/** The client of a stateless pair; closing it stands for the client going away. */
class StatelessClient implements Transport {
  constructor(
    private readonly inner: StreamableHttpClientTransport,
    private readonly facade: StatelessFacade,
  ) {}
  start() {
    return this.inner.start();
  }
  send(frame: Frame) {
    return this.inner.send(frame);
  }
  async close() {
    await this.inner.close();
    this.facade.endByClient();
  }
  onFrame(listener: (frame: Frame, info: FrameInfo) => void) {
    return this.inner.onFrame(listener);
  }
  onError(listener: (error: Error) => void) {
    return this.inner.onError(listener);
  }
  onClose(listener: (event: TransportCloseEvent) => void) {
    return this.inner.onClose(listener);
  }
}

async function createStatelessPair(
  kind: MountKind,
  responseMode: ResponseMode,
): Promise<ContractPair> {
  const facade = new StatelessFacade();
  const endpoint = await mountEndpoint(kind, {
    stateless: true,
    responseMode,
    maxBodyBytes: MAX_BODY_BYTES,
    maxResponseBytes: 2 * MAX_BODY_BYTES,
    batches: BATCHES,
    onSession: (transport) => facade.adopt(transport),
  });
  const inner = new StreamableHttpClientTransport({
    url: endpoint.url,
    fetch: endpoint.fetch,
    protocolVersion: "2025-11-25",
  });
  return {
    client: new StatelessClient(inner, facade),
    server: facade,
    dispose: () => endpoint.dispose(),
  };
}

/**
 * Each mount kind, its name in suite names, and which (session, answer) pairs run: the four of `sse`
 * and `json` and stateful `auto` on the node:http handler and on the web handler called directly
 * (not stateless `auto`: its case "a 10 MiB frame from the server arrives whole" failed once in a
 * loaded full run and passed 4 of 4 alone; the client reads JSON bodies in the background, so the
 * small answer's body can be read before the large one's, as below; stateless `auto` answers are
 * tested in streamable-http-answer-format.test.ts); behind node:http (through
 * `@hono/node-server`) the web handler runs the two stateful suites, SSE and JSON answers over a
 * socket, without doubling the slowest cases. Not the stateless JSON suite there: its case "a 10 MiB
 * frame from the server arrives whole" expects the answers of two POSTs in the order sent, and
 * behind `@hono/node-server` the small answer sometimes overtakes the large one (3 of 4 runs of
 * that suite on a loaded machine; the case alone passed 3 of 3; both answers arrive whole).
 */
const MOUNTS: readonly (readonly [MountKind, string, readonly string[]])[] = [
  [
    "node",
    "node:http handler",
    ["stateful sse", "stateful json", "stateful auto", "stateless sse", "stateless json"],
  ],
  [
    "web",
    "web handler called by fetch",
    ["stateful sse", "stateful json", "stateful auto", "stateless sse", "stateless json"],
  ],
  ["web-over-node-http", "web handler behind node:http", ["stateful sse", "stateful json"]],
];

/**
 * `auto` answers carry no headers before the first frame for the POST (they say which format the
 * answer has), so the client's `send()` of a request settles with its answer, not when the server
 * took the POST: the two cases that await `send()` of a request before letting the server answer
 * it wait in vain.
 */
const SEND_SETTLES_WITH_THE_ANSWER = {
  reason: "in auto mode send() of a request settles with its answer",
  failsWith: /send\(\).* did not resolve within/,
};
const autoKnownFailures = {
  "a 10 MiB frame from the client arrives whole": SEND_SETTLES_WITH_THE_ANSWER,
  "a batch arrives as one array frame, both ways": SEND_SETTLES_WITH_THE_ANSWER,
};

/**
 * Frames in flight in the delivery cases. Every client frame is its own POST (and over HTTP every
 * answer its own response), so the contract's 10,000 are 10,000 concurrent requests: 6 to 11 s a
 * case on two cores, two cases a suite. The full load runs once per mount whose HTTP path is its
 * own (node:http, and the web handler called by fetch), in its stateful SSE suite; the other
 * suites differ only in how answers are framed, and the web handler behind node:http only in the
 * adapter between the two (whose sockets the node:http mount loads already): they run 2,000 (the
 * load the SDK's HTTP transports get in tests/interop), 10 s less a case.
 */
function framesInFlight(kind: MountKind, stateful: boolean, responseMode: ResponseMode): number {
  return kind !== "web-over-node-http" && stateful && responseMode === "sse" ? 10_000 : 2_000;
}

/**
 * The options of the contract suites (for `describeTransportContract`) of one mount kind. One test
 * file per mount kind (streamable-http-*.contract.test.ts), so that vitest can run them side by side.
 */
export function streamableHttpContractSuites(mountKind: MountKind) {
  // The slowest cases send 10,000 frames (each its own POST) and take 10 to 15 s alone; two such
  // files side by side on a loaded two-core machine took up to 61 s. The contract's own stall
  // deadline (no frame for 2 s) still applies within the case.
  const timeoutMs = 180_000;
  const declared = [];
  const [kind, mount, suites] = MOUNTS.find(
    ([each]) => each === mountKind,
  ) as (typeof MOUNTS)[number];
  for (const responseMode of ["sse", "json", "auto"] as const) {
    if (suites.includes(`stateful ${responseMode}`)) {
      declared.push({
        name: `Streamable HTTP (${mount}), stateful, ${responseMode} answers`,
        createPair: () => createStatefulPair(kind, responseMode),
        framesInFlight: framesInFlight(kind, true, responseMode),
        ...(responseMode === "auto" ? { knownFailures: autoKnownFailures } : {}),
        capabilities: {
          orderedDelivery: unordered,
          invalidFrames: noInvalidText,
          framesBeforeStart: {
            unsupported:
              "the pair is made by opening a session (initialize), which starts both sides",
          },
          maxMessageBytes: MAX_BODY_BYTES,
        },
        timeoutMs,
      });
    }
    if (suites.includes(`stateless ${responseMode}`)) {
      declared.push({
        name: `Streamable HTTP (${mount}), stateless, ${responseMode} answers`,
        createPair: () => createStatelessPair(kind, responseMode),
        framesInFlight: framesInFlight(kind, false, responseMode),
        ...(responseMode === "auto" ? { knownFailures: autoKnownFailures } : {}),
        capabilities: {
          orderedDelivery: unordered,
          invalidFrames: noInvalidText,
          serverInitiatedMessages: {
            unsupported: "a stateless endpoint has no stream for messages unrelated to a request",
          },
          serverClose: { unsupported: "a stateless endpoint has no session to end" },
          maxMessageBytes: MAX_BODY_BYTES,
        },
        timeoutMs,
      });
    }
  }
  return declared;
}
