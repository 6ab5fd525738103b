import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Frame, JSONRPCResponse } from "@patchbay/jsonrpc-core";
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
  /** JSON mode: the responses gathered so far (invalid batch elements first). */
  readonly collected: JSONRPCResponse[];
  readonly response: ServerResponse;
  /** SSE mode: the stream currently carrying the answer (replaced when the client resumes). */
  stream: ServerSseStream | undefined;
  /** The answer's id in the event store, stable across resumptions. */
  readonly streamId: string;
  /** True once every response was sent, or the exchange was given up. */
  done: boolean;
}

/** Creates the exchange of a POST whose frame carries at least one request. */
export function createPostExchange(
  frame: Frame,
  response: ServerResponse,
  mode: ResponseMode,
  rejected: readonly JSONRPCResponse[],
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
    collected: [...rejected],
    response,
    stream: undefined,
    streamId: randomUUID(),
    done: false,
  };
}

/** JSON mode: writes the body once every response is in (a batch gets an array). */
export function endJsonAnswer(exchange: PostExchange): void {
  const response = exchange.response;
  if (response.writableEnded || response.destroyed) return;
  response.end(JSON.stringify(exchange.isBatch ? exchange.collected : exchange.collected[0]));
}

/** Gives an exchange up (its session ended): ends its stream, or breaks off a promised JSON body. */
export function abandonPostExchange(exchange: PostExchange): void {
  exchange.done = true;
  if (exchange.stream !== undefined) void exchange.stream.end();
  // A JSON answer already promised 200: breaking it off is the honest signal.
  else exchange.response.destroy();
}
