import {
  createMemoryTransportPair,
  ErrorCode,
  type Frame,
  isBatch,
  type JSONRPCErrorResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type Transport,
} from "@patchbay/jsonrpc-core";
import { LATEST_LEGACY_PROTOCOL_VERSION, PatchbayErrorCode } from "@patchbay/mcp-types";
import { batchTooLarge } from "../admission/batch-limit.js";

const INVALID_REQUEST = ErrorCode.InvalidRequest;
const METHOD_NOT_FOUND = ErrorCode.MethodNotFound;

/** Options of {@link createPlainJsonRpcEndpoint}. */
export interface PlainJsonRpcOptions {
  /** Serves the endpoint's internal client session (wrap and hand it to `router.serve`). */
  readonly serve: (transport: Transport) => Promise<void>;
  /** Requests in one batch at most; a larger batch is one -32600 error. */
  readonly maxBatchSize: number;
  /** Name and version the internal session introduces itself with. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

/** Answers plain JSON-RPC bodies (no session, no `initialize`) through one internal MCP session. */
export interface PlainJsonRpcEndpoint {
  /**
   * Answers a parsed body: a response, an array of responses for a batch, or `undefined` when it
   * held only notifications.
   */
  answer(body: unknown): Promise<JSONRPCResponse | JSONRPCResponse[] | undefined>;
  /** Ends the internal session. */
  close(): Promise<void>;
}

function invalid(id: JSONRPCId | null, message: string): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id: id as JSONRPCId, error: { code: INVALID_REQUEST, message } };
}

/**
 * The simple clients' way to use a gateway (a POST of `{"jsonrpc":"2.0","id":1,"method":
 * "tools/list"}` with `curl`): the endpoint keeps one MCP session open behind the scenes,
 * initialized once, and forwards each request under its own id, so concurrent bodies with the same
 * ids never collide.
 */
export function createPlainJsonRpcEndpoint(options: PlainJsonRpcOptions): PlainJsonRpcEndpoint {
  const [client, gatewaySide] = createMemoryTransportPair();
  const waiting = new Map<JSONRPCId, (response: JSONRPCResponse) => void>();
  let nextId = 0;
  let initializeResult: unknown;

  client.onFrame((frame) => {
    for (const message of isBatch(frame) ? frame : [frame]) {
      if ("method" in message) {
        // A backend asking the client something (sampling, roots): a plain client cannot answer.
        if ("id" in message) {
          const refusal: Frame = {
            jsonrpc: "2.0",
            id: message.id,
            error: {
              code: METHOD_NOT_FOUND,
              message: `${message.method} is not available to plain JSON-RPC clients`,
            },
          };
          client.send(refusal).catch(() => {});
        }
        continue;
      }
      if (message.id === null) continue;
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message);
    }
  });
  client.onClose(() => {
    for (const [id, resolve] of waiting) {
      resolve({
        jsonrpc: "2.0",
        id,
        error: {
          code: PatchbayErrorCode.ConnectionClosed,
          message: "the gateway is shutting down",
        },
      });
    }
    waiting.clear();
  });

  function call(message: JSONRPCMessage & { method: string }): Promise<JSONRPCResponse> {
    const id = nextId++;
    const answer = new Promise<JSONRPCResponse>((resolve) => waiting.set(id, resolve));
    client.send({ ...message, id } as Frame).catch(() => {});
    return answer;
  }

  const ready = (async () => {
    await client.start();
    await options.serve(gatewaySide);
    const response = await call({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: options.clientInfo ?? { name: "plain-json-rpc", version: "1.0.0" },
      },
    });
    if ("error" in response) throw new Error(`initialize failed: ${response.error.message}`);
    initializeResult = response.result;
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  })();
  ready.catch(() => {});

  async function answerOne(value: unknown): Promise<JSONRPCResponse | undefined> {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return invalid(null, "expected a JSON-RPC request object");
    }
    const message = value as { jsonrpc?: unknown; id?: unknown; method?: unknown };
    const id = message.id;
    const validId =
      id === undefined || typeof id === "string" || typeof id === "number" || id === null;
    if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || !validId) {
      return invalid(
        validId && id !== undefined ? (id as JSONRPCId) : null,
        "expected a JSON-RPC 2.0 request",
      );
    }
    if (id === undefined) {
      await client.send(value as Frame);
      return undefined;
    }
    if (message.method === "initialize") {
      return {
        jsonrpc: "2.0",
        id: id as JSONRPCId,
        result: initializeResult as Record<string, unknown>,
      };
    }
    const response = await call(value as JSONRPCMessage & { method: string });
    return { ...response, id: id as JSONRPCId };
  }

  return {
    async answer(body) {
      await ready;
      if (!Array.isArray(body)) return answerOne(body);
      if (body.length === 0) return invalid(null, "an empty batch is invalid");
      if (body.length > options.maxBatchSize)
        return batchTooLarge(body.length, options.maxBatchSize);
      const answers = await Promise.all(body.map(answerOne));
      const responses = answers.filter((answer) => answer !== undefined);
      return responses.length === 0 ? undefined : responses;
    },
    async close() {
      await client.close();
    },
  };
}
