const HMAC = { name: "HMAC", hash: "SHA-256" } as const;

/**
 * Seals JSON values so that a client can carry them and hand them back unaltered: the text is
 * `base64url(JSON).base64url(HMAC-SHA256)` under a key of the issuer (Web Crypto, so any runtime).
 * MCP 2026-07-28 request state is built on it: opaque to the client, never trusted blindly.
 * `open` verifies in constant time and gives `undefined` for text that was altered, sealed under
 * another key, or is not of the form.
 */
export class SealedJson {
  readonly #key: Promise<CryptoKey>;

  /** `key` is the HMAC key (at least 32 bytes). */
  constructor(key: Uint8Array) {
    if (key.byteLength < 32) throw new RangeError("the request state key needs at least 32 bytes");
    this.#key = crypto.subtle.importKey("raw", new Uint8Array(key), HMAC, false, [
      "sign",
      "verify",
    ]);
  }

  /** The sealed text of `value`. */
  async seal(value: unknown): Promise<string> {
    const body = toBase64Url(new TextEncoder().encode(JSON.stringify(value)));
    const signature = await crypto.subtle.sign(HMAC, await this.#key, ascii(body));
    return `${body}.${toBase64Url(new Uint8Array(signature))}`;
  }

  /** The value sealed in `text`, or `undefined` when it fails its integrity check. */
  async open(text: string): Promise<unknown> {
    const [body = "", signature = "", ...rest] = text.split(".");
    const signatureBytes = fromBase64Url(signature);
    const valid =
      rest.length === 0 &&
      signatureBytes !== undefined &&
      (await crypto.subtle.verify(HMAC, await this.#key, signatureBytes, ascii(body)));
    const bytes = valid ? fromBase64Url(body) : undefined;
    return bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes));
  }
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
