import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { SealedJson } from "./sealed-json.js";

/** The largest `requestState` accepted back from a client (characters of its text). */
export const MAX_REQUEST_STATE_LENGTH = 256 * 1024;

/** What a server keeps across MRTR rounds: the request it belongs to and the answers so far. */
export interface RequestStatePayload {
  /** The method and target (`tools/call` + tool name, ...) the state was issued for. */
  readonly method: string;
  readonly target: string;
  /** Input responses received in earlier rounds, by input request key. */
  readonly responses: Record<string, unknown>;
}

/**
 * Seals and opens MRTR `requestState` (MCP 2026-07-28: the state is opaque to the client and the
 * server must not trust it blindly), as {@link SealedJson} under a per-server key: a state that was
 * altered, issued by another server, or issued for another request is refused with -32602.
 */
export class RequestStateCodec {
  readonly #sealed: SealedJson;

  /** `key` is the HMAC key (at least 32 bytes). */
  constructor(key: Uint8Array) {
    this.#sealed = new SealedJson(key);
  }

  /** The sealed text of `payload`. */
  seal(payload: RequestStatePayload): Promise<string> {
    return this.#sealed.seal(payload);
  }

  /** Opens `text` issued for `method`/`target`, or throws -32602. */
  async open(text: unknown, method: string, target: string): Promise<RequestStatePayload> {
    if (typeof text !== "string" || text.length > MAX_REQUEST_STATE_LENGTH) {
      throw invalidState("requestState must be a string of at most 256 KiB");
    }
    const payload = (await this.#sealed.open(text)) as RequestStatePayload | undefined;
    if (payload === undefined) throw invalidState("requestState failed its integrity check");
    if (payload.method !== method || payload.target !== target) {
      throw invalidState("requestState was issued for another request");
    }
    return payload;
  }
}

/** 32 random bytes: the default per-server key. */
export function randomRequestStateKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

function invalidState(message: string): InvalidParamsError {
  return new InvalidParamsError(`Invalid requestState: ${message}`);
}
