import type { Frame, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { HttpResponseSink } from "./http-io.js";
import { idKey, messagesOf, progressTokenOf } from "./message-keys.js";
import type { ServerSseStream } from "./server-sse-stream.js";
import type { ResponseMode } from "./session-settings.js";

/** One POST waiting for the responses to the requests it carried. */
export interface PostExchange {
  readonly mode: ResponseMode;
  readonly isBatch: boolean;
  /** Keys ({@link idKey}) of the requests still unanswered. */
  readonly pending: Set<string>;
  /** Keys of the progress tokens its requests asked for. */
  readonly progressTokens: readonly string[];
  /** JSON mode: the responses gathered so far (invalid batch elements first), serialized. */
  readonly collected: string[];
  readonly response: HttpResponseSink;
  /** SSE mode: the stream currently carrying the answer (replaced when the client resumes). */
  stream: ServerSseStream | undefined;
  /** The answer's id in the event store, stable across resumptions. */
  readonly streamId: string;
  /** True once every response was sent, or the exchange was given up. */
  done: boolean;
  /** Bytes of responses sent so far (checked against the per-POST limit). */
  responseBytes: number;
}

/** The JSON-RPC error code of a response replaced because its POST's answer passed the byte limit. */
export const RESPONSE_TOO_LARGE_CODE = -32011;

/** Creates the exchange of a POST whose frame carries at least one request. */
export function createPostExchange(
  frame: Frame,
  response: HttpResponseSink,
  mode: ResponseMode,
  rejected: readonly JSONRPCResponse[],
  streamId: string,
): PostExchange {
  const pending = new Set<string>();
  const progressTokens: string[] = [];
  for (const message of messagesOf(frame)) {
    if (!("method" in message) || !("id" in message)) continue;
    pending.add(idKey(message.id));
    const token = progressTokenOf(message);
    if (token !== undefined) progressTokens.push(idKey(token));
  }
  return {
    mode,
    isBatch: Array.isArray(frame),
    pending,
    progressTokens,
    collected: rejected.map((response) => JSON.stringify(response)),
    response,
    stream: undefined,
    streamId,
    done: false,
    responseBytes: 0,
  };
}

/** Responses as they will be sent, each with its JSON text (serialized once). */
export interface CappedResponses {
  readonly responses: JSONRPCResponse[];
  readonly texts: string[];
}

/**
 * Counts responses against the per-POST limit; each one that would pass it is replaced by an error
 * response with the same id naming the limit, so a POST is never answered with more than about
 * `maxBytes` (batch amplification).
 */
export function capResponses(
  exchange: PostExchange,
  responses: readonly JSONRPCResponse[],
  maxBytes: number,
): CappedResponses {
  const texts: string[] = [];
  const capped = responses.map((response) => {
    const text = JSON.stringify(response);
    if (exchange.responseBytes + text.length <= maxBytes) {
      exchange.responseBytes += text.length;
      texts.push(text);
      return response;
    }
    const replaced: JSONRPCResponse = {
      jsonrpc: "2.0",
      id: response.id,
      error: {
        code: RESPONSE_TOO_LARGE_CODE,
        message: `Response too large: the answer to this POST would exceed the limit of ${maxBytes} bytes (maxResponseBytes)`,
      },
    };
    const replacedText = JSON.stringify(replaced);
    exchange.responseBytes += replacedText.length;
    texts.push(replacedText);
    return replaced;
  });
  return { responses: capped, texts };
}

/** JSON mode: writes the body once every response is in (a batch gets an array). */
export function endJsonAnswer(exchange: PostExchange): void {
  const response = exchange.response;
  if (response.writableEnded || response.destroyed) return;
  const texts = exchange.collected;
  response.end(exchange.isBatch ? `[${texts.join(",")}]` : texts[0]);
}

/** Gives an exchange up (its session ended): ends its stream, or breaks off a promised JSON body. */
export function abandonPostExchange(exchange: PostExchange): void {
  exchange.done = true;
  if (exchange.stream !== undefined) void exchange.stream.end();
  // A JSON answer already promised 200: breaking it off is the honest signal.
  else exchange.response.destroy();
}
