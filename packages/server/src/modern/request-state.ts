import { InvalidParamsError } from "@patchbay/jsonrpc-core";

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

const HMAC = { name: "HMAC", hash: "SHA-256" } as const;

/**
 * Seals and opens MRTR `requestState` (MCP 2026-07-28: the state is opaque to the client and the
 * server must not trust it blindly). The text is `base64url(JSON).base64url(HMAC-SHA256)` under a
 * per-server key (Web Crypto, so any runtime): a state that was altered, issued by another server,
 * or issued for another request is refused with -32602. `verify` compares in constant time.
 */
export class RequestStateCodec {
  readonly #key: Promise<CryptoKey>;

  /** `key` is the HMAC key (at least 32 bytes). */
  constructor(key: Uint8Array) {
    if (key.byteLength < 32) throw new RangeError("the request state key needs at least 32 bytes");
    this.#key = crypto.subtle.importKey("raw", new Uint8Array(key), HMAC, false, [
      "sign",
      "verify",
    ]);
  }

  /** The sealed text of `payload`. */
  async seal(payload: RequestStatePayload): Promise<string> {
    const body = toBase64Url(new TextEncoder().encode(JSON.stringify(payload)));
    const signature = await crypto.subtle.sign(HMAC, await this.#key, ascii(body));
    return `${body}.${toBase64Url(new Uint8Array(signature))}`;
  }

  /** Opens `text` issued for `method`/`target`, or throws -32602. */
  async open(text: unknown, method: string, target: string): Promise<RequestStatePayload> {
    if (typeof text !== "string" || text.length > MAX_REQUEST_STATE_LENGTH) {
      throw invalidState("requestState must be a string of at most 256 KiB");
    }
    const [body = "", signature = "", ...rest] = text.split(".");
    const signatureBytes = fromBase64Url(signature);
    const valid =
      rest.length === 0 &&
      signatureBytes !== undefined &&
      (await crypto.subtle.verify(HMAC, await this.#key, signatureBytes, ascii(body)));
    const bytes = valid ? fromBase64Url(body) : undefined;
    if (bytes === undefined) throw invalidState("requestState failed its integrity check");
    const payload = JSON.parse(new TextDecoder().decode(bytes)) as RequestStatePayload;
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
