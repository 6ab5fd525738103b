import type { Frame, JSONRPCId, JSONRPCMessage, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { PostExchange } from "./post-exchange.js";

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
