import {
  type Frame,
  ImplementationErrorCode,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCResponse,
  messagesOf,
} from "@patchbay/jsonrpc-core";
import {
  type AnswerText,
  answerSize,
  answerText,
  type HttpResponseSink,
  LARGE_TEXT_LENGTH,
  utf8Bytes,
  utf8Length,
  writePieces,
} from "./http-io.js";
import type { ServerSseStream } from "./server-sse-stream.js";
import type { ResponseMode } from "./session-settings.js";

/**
 * A POST's exchange (the HTTP answer its responses are written to) and the routes from request ids
 * and progress tokens to the open exchanges.
 */

/** One POST waiting for the responses to the requests it carried. */
export interface PostExchange {
  readonly mode: ResponseMode;
  readonly isBatch: boolean;
  /**
   * Ids of the requests still unanswered. A `Map`/`Set` keeps `1` and `"1"` apart (SameValueZero),
   * so ids are their own keys.
   */
  readonly pending: Set<JSONRPCId>;
  /** The progress tokens its requests asked for. */
  readonly progressTokens: readonly (string | number)[];
  /** JSON answers: the responses gathered so far (invalid batch elements first), serialized. */
  readonly collected: AnswerText[];
  /**
   * The responses behind `collected` (same order) while no stream carries the answer (`sse` and
   * `auto` modes), so that they go first on the SSE stream when it opens.
   */
  readonly collectedResponses: JSONRPCResponse[];
  readonly response: HttpResponseSink;
  /** The answer's headers (the session id); `auto` mode writes them with the first frame. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The SSE stream currently carrying the answer (replaced when the client resumes): set at once
   * in `sse` mode, and in `auto` mode once something related to the POST's requests comes before
   * their responses.
   */
  stream: ServerSseStream | undefined;
  /**
   * `auto` mode: when the SSE stream of an answer still pending opens (clock time; the session's one
   * timer checks its exchanges in order); `undefined` once decided or without keep-alives.
   */
  streamDeadline: number | undefined;
  /** `auto` mode: settles the wait for the answer's format (see {@link markDecided}). */
  decided: (() => void) | undefined;
  /** The answer's id in the event store, stable across resumptions. */
  readonly streamId: string;
  /** True once every response was sent, or the exchange was given up. */
  done: boolean;
  /** Bytes of responses sent so far (checked against the per-POST limit). */
  responseBytes: number;
}

/** The JSON-RPC error code of a response replaced because its POST's answer passed the byte limit. */
export const RESPONSE_TOO_LARGE_CODE = ImplementationErrorCode.ResponseTooLarge;

/** Creates the exchange of a POST whose frame carries at least one request. */
export function createPostExchange(
  frame: Frame,
  response: HttpResponseSink,
  mode: ResponseMode,
  rejected: readonly JSONRPCResponse[],
  streamId: string,
  headers: Readonly<Record<string, string>>,
): PostExchange {
  const pending = new Set<JSONRPCId>();
  const progressTokens: (string | number)[] = [];
  for (const message of messagesOf(frame)) {
    if (!("method" in message) || !("id" in message)) continue;
    pending.add(message.id);
    const token = progressTokenOf(message);
    if (token !== undefined) progressTokens.push(token);
  }
  return {
    mode,
    isBatch: Array.isArray(frame),
    pending,
    progressTokens,
    collected: rejected.map((response) => JSON.stringify(response)),
    collectedResponses: mode === "json" ? [] : [...rejected],
    response,
    headers,
    stream: undefined,
    streamDeadline: undefined,
    decided: undefined,
    streamId,
    done: false,
    responseBytes: 0,
  };
}

/** Responses as they will be sent, each with its JSON text (serialized once, or relayed). */
export interface CappedResponses {
  readonly responses: JSONRPCResponse[];
  readonly texts: AnswerText[];
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
  const texts: AnswerText[] = [];
  const capped = responses.map((response) => {
    const text = answerText(response);
    const size = answerSize(text);
    if (exchange.responseBytes + size <= maxBytes) {
      exchange.responseBytes += size;
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

/**
 * True while an `auto` answer is undecided: nothing written yet, and the client still there. The
 * first frame for the POST decides: its responses (JSON), or a related message first (SSE).
 */
export function isUndecided(exchange: PostExchange): boolean {
  const response = exchange.response;
  return (
    exchange.mode === "auto" &&
    exchange.stream === undefined &&
    !response.headersSent &&
    !response.writableEnded &&
    !response.destroyed
  );
}

/** Tells whoever waits for an `auto` answer's format that its headers are written (or moot). */
export function markDecided(exchange: PostExchange): void {
  const decided = exchange.decided;
  exchange.decided = undefined;
  decided?.();
}

/**
 * Writes the JSON body once every response is in (a batch gets an array). In `auto` mode the
 * headers go with it, so that status, headers and body leave in one write.
 */
export function endJsonAnswer(exchange: PostExchange): void {
  markDecided(exchange);
  const response = exchange.response;
  if (response.writableEnded || response.destroyed) return;
  const texts = exchange.collected;
  if (texts.some((text) => typeof text !== "string")) {
    endRelayedJsonAnswer(exchange, texts);
    return;
  }
  const text = exchange.isBatch ? `[${texts.join(",")}]` : (texts[0] as string);
  // A large body is encoded once here; node:http would copy and encode the string again.
  const body = text.length < LARGE_TEXT_LENGTH ? text : utf8Bytes(text);
  if (!response.headersSent) {
    const length = typeof body === "string" ? utf8Length(body) : body.byteLength;
    response.writeHead(200, {
      ...exchange.headers,
      "content-type": "application/json",
      "content-length": String(length),
    });
  }
  response.end(body);
}

/** {@link endJsonAnswer} for a body with a relayed response: its pieces, written as they are. */
function endRelayedJsonAnswer(exchange: PostExchange, texts: readonly AnswerText[]): void {
  const pieces: (string | Uint8Array)[] = exchange.isBatch ? ["["] : [];
  let length = exchange.isBatch ? 2 + texts.length - 1 : 0;
  for (const [index, text] of texts.entries()) {
    if (index > 0) pieces.push(",");
    if (typeof text === "string") {
      pieces.push(text);
      length += utf8Length(text);
    } else {
      pieces.push(...text.pieces);
      length += text.bytes;
    }
  }
  if (exchange.isBatch) pieces.push("]");
  const response = exchange.response;
  if (!response.headersSent) {
    response.writeHead(200, {
      ...exchange.headers,
      "content-type": "application/json",
      "content-length": String(length),
    });
  }
  writePieces(response, pieces);
  response.end();
}

/**
 * Gives an exchange up (its session ended): ends its stream; an undecided `auto` answer becomes an
 * SSE stream that ends at once, as an `sse` answer would; a promised JSON body is broken off.
 */
export function abandonPostExchange(exchange: PostExchange): void {
  exchange.done = true;
  if (exchange.stream !== undefined) void exchange.stream.end();
  else if (isUndecided(exchange)) {
    exchange.response.writeHead(200, {
      ...exchange.headers,
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
    });
    exchange.response.end();
  }
  // A JSON answer already promised 200: breaking it off is the honest signal.
  else exchange.response.destroy();
  markDecided(exchange);
}

/**
 * Which open POST awaits which response: request ids and progress tokens mapped to their exchange.
 * This routes frames to HTTP answers; correlating requests with responses stays in the Connection.
 */
export class ExchangeRoutes {
  // Made on first use: an idle session (most of them, most of the time) holds no maps.
  private byRequest: Map<JSONRPCId, PostExchange> | undefined;
  private byProgressToken: Map<string | number, PostExchange> | undefined;
  /** The open exchanges by the stream id of their answer (insertion order: oldest first). */
  private open: Map<string, PostExchange> | undefined;

  /** The number of exchanges still waiting for responses. */
  get size(): number {
    return this.open?.size ?? 0;
  }

  /** Registers an exchange's request ids and progress tokens. */
  add(exchange: PostExchange): void {
    const byRequest = this.byRequest ?? new Map<JSONRPCId, PostExchange>();
    this.byRequest = byRequest;
    for (const key of exchange.pending) byRequest.set(key, exchange);
    if (exchange.progressTokens.length > 0) {
      const byProgressToken = this.byProgressToken ?? new Map<string | number, PostExchange>();
      this.byProgressToken = byProgressToken;
      for (const token of exchange.progressTokens) byProgressToken.set(token, exchange);
    }
    const open = this.open ?? new Map<string, PostExchange>();
    this.open = open;
    open.set(exchange.streamId, exchange);
  }

  /** True while the exchange waits for responses here. */
  has(exchange: PostExchange): boolean {
    return this.open?.get(exchange.streamId) === exchange;
  }

  /** The exchange awaiting the response with this id. */
  forRequest(id: JSONRPCId | null): PostExchange | undefined {
    return id === null ? undefined : this.byRequest?.get(id);
  }

  /** The exchange whose request asked for this progress token. */
  forProgressToken(token: string | number): PostExchange | undefined {
    return this.byProgressToken?.get(token);
  }

  /** The open exchange whose answer has this stream id. */
  forStream(streamId: string): PostExchange | undefined {
    return this.open?.get(streamId);
  }

  /** The exchange a batch of responses answers as a whole, when every element answers the same one. */
  batchTarget(frame: Frame): PostExchange | undefined {
    if (!Array.isArray(frame) || frame.length === 0) return undefined;
    let target: PostExchange | undefined;
    for (const message of frame as readonly JSONRPCMessage[]) {
      if ("method" in message) return undefined;
      const exchange = this.forRequest(message.id);
      if (exchange === undefined || (target !== undefined && exchange !== target)) return undefined;
      target = exchange;
    }
    return target;
  }

  /**
   * Marks responses as answered; when the exchange has none left it is done and forgotten here.
   * Returns whether that happened.
   */
  settle(exchange: PostExchange, responses: readonly JSONRPCResponse[]): boolean {
    for (const response of responses) {
      if (response.id === null) continue;
      this.byRequest?.delete(response.id);
      exchange.pending.delete(response.id);
    }
    if (exchange.pending.size > 0) return false;
    exchange.done = true;
    this.open?.delete(exchange.streamId);
    const byProgressToken = this.byProgressToken;
    for (const token of exchange.progressTokens) {
      if (byProgressToken?.get(token) === exchange) byProgressToken.delete(token);
    }
    // Nothing open: the maps go (an idle session holds none); the next POST makes them again.
    if (this.open?.size === 0) this.clear();
    return true;
  }

  /** Forgets every exchange and returns them (the session ended). */
  clear(): PostExchange[] {
    const open = this.open === undefined ? [] : [...this.open.values()];
    this.open = undefined;
    this.byRequest = undefined;
    this.byProgressToken = undefined;
    return open;
  }

  /** True while the exchange answered on this stream id is open. */
  /** The open exchanges, in the order they were added. */
  exchanges(): Iterable<PostExchange> {
    return this.open?.values() ?? [];
  }

  isOpenStream(streamId: string): boolean {
    return this.open?.has(streamId) ?? false;
  }
}

/** The `_meta.progressToken` of a request, when it asks for progress. */
function progressTokenOf(message: JSONRPCMessage): string | number | undefined {
  if (!("method" in message) || message.params === undefined || Array.isArray(message.params)) {
    return undefined;
  }
  const meta = (message.params as { _meta?: { progressToken?: unknown } })._meta;
  const token = meta?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}
