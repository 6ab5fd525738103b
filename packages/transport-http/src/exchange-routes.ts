import type { Frame, JSONRPCId, JSONRPCMessage, JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { idKey } from "./message-keys.js";
import type { PostExchange } from "./post-exchange.js";

/**
 * Which open POST awaits which response: request ids and progress tokens mapped to their exchange.
 * This routes frames to HTTP answers; correlating requests with responses stays in the Connection.
 */
export class ExchangeRoutes {
  private readonly byRequest = new Map<string, PostExchange>();
  private readonly byProgressToken = new Map<string, PostExchange>();
  /** The open exchanges by the stream id of their answer (insertion order: oldest first). */
  private readonly open = new Map<string, PostExchange>();

  /** The number of exchanges still waiting for responses. */
  get size(): number {
    return this.open.size;
  }

  /** Registers an exchange's request ids and progress tokens. */
  add(exchange: PostExchange): void {
    for (const key of exchange.pending) this.byRequest.set(key, exchange);
    for (const token of exchange.progressTokens) this.byProgressToken.set(token, exchange);
    this.open.set(exchange.streamId, exchange);
  }

  /** True while the exchange waits for responses here. */
  has(exchange: PostExchange): boolean {
    return this.open.get(exchange.streamId) === exchange;
  }

  /** The exchange awaiting the response with this id. */
  forRequest(id: JSONRPCId | null): PostExchange | undefined {
    return id === null ? undefined : this.byRequest.get(idKey(id));
  }

  /** The exchange whose request asked for this progress token. */
  forProgressToken(token: string | number): PostExchange | undefined {
    return this.byProgressToken.get(idKey(token));
  }

  /** The open exchange whose answer has this stream id. */
  forStream(streamId: string): PostExchange | undefined {
    return this.open.get(streamId);
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
      const key = idKey(response.id);
      this.byRequest.delete(key);
      exchange.pending.delete(key);
    }
    if (exchange.pending.size > 0) return false;
    exchange.done = true;
    this.open.delete(exchange.streamId);
    for (const token of exchange.progressTokens) {
      if (this.byProgressToken.get(token) === exchange) this.byProgressToken.delete(token);
    }
    return true;
  }

  /** Forgets every exchange and returns them (the session ended). */
  clear(): PostExchange[] {
    const open = [...this.open.values()];
    this.open.clear();
    this.byRequest.clear();
    this.byProgressToken.clear();
    return open;
  }

  /** True while the exchange answered on this stream id is open. */
  isOpenStream(streamId: string): boolean {
    return this.open.has(streamId);
  }
}
