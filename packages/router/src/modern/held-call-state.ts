import { JSONRPCError } from "@patchbay/jsonrpc-core";
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
}

const HMAC = { name: "HMAC", hash: "SHA-256" } as const;

/**
 * Seals and opens the `requestState` of the gateway's `input_required` results (MCP 2026-07-28:
 * request state is opaque to the client and must not be trusted blindly). The text is
 * `base64url(JSON).base64url(HMAC-SHA256)` under a per-router key (Web Crypto, any runtime); an
 * altered state, one issued by another gateway, for another request or to another caller is
 * refused with -32602. `verify` compares in constant time.
 */
export class HeldCallStateCodec {
  readonly #key: Promise<CryptoKey>;

  constructor(key: Uint8Array = crypto.getRandomValues(new Uint8Array(32))) {
    if (key.byteLength < 32) throw new RangeError("the request state key needs at least 32 bytes");
    this.#key = crypto.subtle.importKey("raw", new Uint8Array(key), HMAC, false, [
      "sign",
      "verify",
    ]);
  }

  /** The sealed text of `state`. */
  async seal(state: HeldCallState): Promise<string> {
    const body = toBase64Url(new TextEncoder().encode(JSON.stringify(state)));
    const signature = await crypto.subtle.sign(HMAC, await this.#key, ascii(body));
    return `${body}.${toBase64Url(new Uint8Array(signature))}`;
  }

  /** Opens `text` and checks it was issued for this request and caller, or throws -32602. */
  async open(
    text: unknown,
    expected: Pick<HeldCallState, "method" | "target" | "caller">,
  ): Promise<HeldCallState> {
    if (typeof text !== "string" || text.length > MAX_HELD_CALL_STATE_LENGTH) {
      throw invalidState(`requestState must be a string of at most ${MAX_HELD_CALL_STATE_LENGTH}`);
    }
    const [body = "", signature = "", ...rest] = text.split(".");
    const signatureBytes = fromBase64Url(signature);
    const valid =
      rest.length === 0 &&
      signatureBytes !== undefined &&
      (await crypto.subtle.verify(HMAC, await this.#key, signatureBytes, ascii(body)));
    const bytes = valid ? fromBase64Url(body) : undefined;
    if (bytes === undefined) throw invalidState("requestState failed its integrity check");
    const state = JSON.parse(new TextDecoder().decode(bytes)) as HeldCallState;
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

function ascii(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}
