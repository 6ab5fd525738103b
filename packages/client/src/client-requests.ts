import type { Connection, JSONRPCParams, RequestOptions } from "@patchbay/jsonrpc-core";
import type { CallOptions, ClientOptions, ListOptions } from "./client-types.js";
import { NotConnectedError } from "./errors/not-connected-error.js";
import { type InputRoundsSettings, runInputRounds } from "./input-rounds.js";
import { listAllPages, type PageResult } from "./list-all-pages.js";
import type { ModernSession } from "./modern-session.js";

/** How a client sends requests once connected: single requests, pages and whole lists. */
export interface ClientRequests {
  send(method: string, params?: JSONRPCParams, callOptions?: CallOptions): Promise<unknown>;
  page(method: string, listOptions?: ListOptions): Promise<PageResult>;
  all<Item>(method: string, key: string, callOptions?: CallOptions): Promise<Item[]>;
}

/**
 * Builds the request helpers over the connection that `ready` returns (it throws a
 * `NotConnectedError` before the handshake finished or after close). In the modern era (`modern()`
 * returns the session) every request carries the per-request `_meta`, and `input_required`
 * results are answered and retried (MRTR).
 */
export function createClientRequests(
  options: ClientOptions,
  ready: (method: string) => Connection,
  modern: () => ModernSession | undefined = () => undefined,
  rounds?: InputRoundsSettings,
): ClientRequests {
  const requestOptions = (callOptions: CallOptions = {}): RequestOptions => {
    const {
      onProgress,
      extensions: _extensions,
      capabilities: _capabilities,
      ...rest
    } = callOptions;
    const result: RequestOptions = { ...rest };
    if (result.timeoutMs === undefined && options.requestTimeoutMs !== undefined) {
      result.timeoutMs = options.requestTimeoutMs;
    }
    if (onProgress !== undefined) {
      result.onProgress = (params) => onProgress(params as Parameters<typeof onProgress>[0]);
    }
    return result;
  };
  const send = async (method: string, params?: JSONRPCParams, callOptions?: CallOptions) => {
    const connection = ready(method);
    const session = modern();
    if (session === undefined || rounds === undefined) {
      return await connection.request(method, params, requestOptions(callOptions));
    }
    return await runInputRounds(
      method,
      session.withRequestMeta(params, callOptions?.extensions, callOptions?.capabilities),
      (roundParams, onRequestId) =>
        connection.request(method, roundParams as JSONRPCParams, {
          ...requestOptions(callOptions),
          onRequestId(id) {
            onRequestId(id);
            callOptions?.onRequestId?.(id);
          },
        }),
      rounds,
      callOptions?.signal,
    );
  };
  const page = (method: string, listOptions: ListOptions = {}) => {
    const { cursor, ...rest } = listOptions;
    return send(method, cursor === undefined ? {} : { cursor }, rest) as Promise<PageResult>;
  };
  return {
    send,
    page,
    all: <Item>(method: string, key: string, callOptions?: CallOptions) =>
      listAllPages<Item>(key, (cursor) =>
        page(method, cursor === undefined ? { ...callOptions } : { ...callOptions, cursor }),
      ),
  };
}

/** The `ready` check: the connection when the handshake finished and it is open. */
export function requireConnected(
  connection: Connection | undefined,
  initialized: boolean,
  method: string,
): Connection {
  if (connection === undefined || !initialized || connection.closed) {
    throw new NotConnectedError(method);
  }
  return connection;
}
