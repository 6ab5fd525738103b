import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { SealedJson } from "@patchbay/server";
import { INVALID_PARAMS } from "../errors/map-error.js";

/** The largest `requestState` the gateway accepts back from a client (characters). */
export const MAX_HELD_CALL_STATE_LENGTH = 4096;

/** What the gateway's `requestState` says: which held backend call, which round, for whom. */
export interface HeldCallState {
  /** The held call's key (random, gateway-wide). */
  readonly held: string;
  /** The round the state was issued for (a replayed older state is refused). */
  readonly round: number;
  /** The request (method and tool/prompt name or resource URI) the state was issued for. */
  readonly method: string;
  readonly target: string;
  /** The caller (token name, stdio session) the state was issued to. */
  readonly caller: string;
  /** The replica holding the call, when replicas share the key (absent in a single process). */
  readonly replica?: string;
}

/**
 * Seals and opens the `requestState` of the gateway's `input_required` results (MCP 2026-07-28:
 * request state is opaque to the client and must not be trusted blindly), as `SealedJson` of
 * `@patchbay/server` under a per-router key: an altered state, one issued by another gateway, for
 * another request or to another caller is refused with -32602.
 */
export class HeldCallStateCodec {
  readonly #sealed: SealedJson;

  constructor(key: Uint8Array = crypto.getRandomValues(new Uint8Array(32))) {
    this.#sealed = new SealedJson(key);
  }

  /** The sealed text of `state`. */
  seal(state: HeldCallState): Promise<string> {
    return this.#sealed.seal(state);
  }

  /** Opens `text` and checks it was issued for this request and caller, or throws -32602. */
  async open(
    text: unknown,
    expected: Pick<HeldCallState, "method" | "target" | "caller">,
  ): Promise<HeldCallState> {
    if (typeof text !== "string" || text.length > MAX_HELD_CALL_STATE_LENGTH) {
      throw invalidState(`requestState must be a string of at most ${MAX_HELD_CALL_STATE_LENGTH}`);
    }
    const state = (await this.#sealed.open(text)) as HeldCallState | undefined;
    if (state === undefined) throw invalidState("requestState failed its integrity check");
    if (
      state.method !== expected.method ||
      state.target !== expected.target ||
      state.caller !== expected.caller
    ) {
      throw invalidState("requestState was issued for another request");
    }
    return state;
  }
}

function invalidState(message: string): JSONRPCError {
  return new JSONRPCError(INVALID_PARAMS, `Invalid requestState: ${message}`);
}
