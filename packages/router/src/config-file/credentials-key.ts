/// <reference types="node" />
// Node only: the credential store's key, for node:crypto's AES-256-GCM.

/** The environment variable the proxy reads the credential store's key from. */
export const CREDENTIALS_KEY_VARIABLE = "PATCHBAY_CREDENTIALS_KEY";

/** A credential store that cannot be used: its key, its file, or a value in it. */
export class CredentialStoreError extends Error {
  /** Matched by the apps to print the message alone. */
  readonly code = "CREDENTIAL_STORE";

  constructor(message: string) {
    super(message);
    this.name = "CredentialStoreError";
  }
}

/** Fewer different bytes than this in 32 is not a random key (a repeated or typed pattern). */
const MINIMUM_DISTINCT_BYTES = 12;

/**
 * The 32-byte key written in `text`: 64 hex digits, or base64 of 32 bytes. A missing, short, long
 * or patterned key is refused, naming the variable and how to make a good one; the key itself is
 * never part of a message.
 */
export function parseCredentialsKey(
  text: string | undefined,
  variable = CREDENTIALS_KEY_VARIABLE,
): Buffer {
  const howTo = `make one with \`openssl rand -base64 32\` and set ${variable} to it`;
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") {
    throw new CredentialStoreError(
      `${variable} is not set: per-principal backends need the credential store's key (${howTo})`,
    );
  }
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed, "base64")
      : undefined;
  if (key === undefined || key.length !== 32) {
    throw new CredentialStoreError(
      `${variable} must be 32 bytes as 64 hex digits or base64 (${howTo})`,
    );
  }
  if (new Set(key).size < MINIMUM_DISTINCT_BYTES) {
    throw new CredentialStoreError(`${variable} is not a random key (${howTo})`);
  }
  return key;
}
