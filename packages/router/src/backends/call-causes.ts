import { type JSONRPCId, RequestIdMap } from "@patchbay/jsonrpc-core";

/** Who made a call to a backend: an opaque caller (a client session's id) and its request id. */
export interface CallCause {
  readonly caller: string;
  /** The id of the caller's own request (what a relayed request names as related). */
  readonly requestId: JSONRPCId;
}

/**
 * One tracked call: hand `onRequestId` to the connection (called once per id the call is sent
 * under), call `end` once it settles.
 */
export interface TrackedCall {
  onRequestId(id: JSONRPCId): void;
  end(): void;
}

/**
 * The calls in flight to one backend and who made each, keyed by the id the backend connection
 * sent them under: a server-to-client request that names its related request is traced to its
 * caller here.
 */
export class CallCauses {
  // Not a `Map`: an entry per call, and a long-lived `Map` used so promotes what it held.
  readonly #byRequest = new RequestIdMap<CallCause>();
  readonly #perCaller = new Map<string, number>();

  /** Registers a call of `cause`. */
  track(cause: CallCause): TrackedCall {
    const byRequest = this.#byRequest;
    const perCaller = this.#perCaller;
    perCaller.set(cause.caller, (perCaller.get(cause.caller) ?? 0) + 1);
    let sentId: JSONRPCId | undefined;
    // A modern backend's call is retried under a new id per input round (MCP 2026-07-28 MRTR).
    let earlierIds: JSONRPCId[] | undefined;
    let ended = false;
    return {
      onRequestId(id) {
        if (sentId !== undefined) {
          earlierIds ??= [];
          earlierIds.push(sentId);
        }
        sentId = id;
        byRequest.set(id, cause);
      },
      end() {
        if (ended) return;
        ended = true;
        for (const id of earlierIds ?? []) byRequest.delete(id, cause);
        if (sentId !== undefined) byRequest.delete(sentId, cause);
        const left = (perCaller.get(cause.caller) ?? 1) - 1;
        if (left > 0) perCaller.set(cause.caller, left);
        else perCaller.delete(cause.caller);
      },
    };
  }

  /** The cause of the call the backend connection sent under `id`, while it is in flight. */
  of(id: JSONRPCId): CallCause | undefined {
    return this.#byRequest.get(id);
  }

  /** The callers with calls in flight, each once. */
  callers(): string[] {
    return [...this.#perCaller.keys()];
  }

  /** How many calls of `caller` are in flight. */
  inFlight(caller: string): number {
    return this.#perCaller.get(caller) ?? 0;
  }
}
