import { base64url } from "jose";
import type { GrantedProfiles } from "./scope-profiles.js";

/** Who an OAuth access token speaks for, and what it opens. */
export interface OAuthPrincipal {
  readonly kind: "oauth";
  /**
   * A stable key for sessions, limits, logs and metrics: `<issuer>#<subject>`, or, when that would
   * be longer than {@link MAX_PRINCIPAL_ID_LENGTH}, `oauth:` and the SHA-256 of both (base64url).
   */
  readonly id: string;
  readonly issuer: string;
  readonly subject: string;
  readonly profiles: GrantedProfiles;
  readonly scopes: readonly string[];
}

/** The longest principal id (ids become log fields and metric labels). */
export const MAX_PRINCIPAL_ID_LENGTH = 256;
/** The longest accepted subject; a longer one is refused rather than cut (two could then collide). */
export const MAX_SUBJECT_LENGTH = 255;

// C0 and C1 controls and the line/paragraph separators, which would forge lines in logs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when `value` can name a principal: a non-empty, bounded string with no control character. */
export function isUsableSubject(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length > 0 &&
    value.length <= MAX_SUBJECT_LENGTH &&
    !controlCharacters.test(value)
  );
}

/** Builds the principal of a verified token (the subject must pass {@link isUsableSubject}). */
export async function createOAuthPrincipal(fields: {
  readonly issuer: string;
  readonly subject: string;
  readonly profiles: GrantedProfiles;
  readonly scopes: readonly string[];
}): Promise<OAuthPrincipal> {
  let id = `${fields.issuer}#${fields.subject}`;
  if (id.length > MAX_PRINCIPAL_ID_LENGTH) {
    // The newline cannot occur in either part, so no two pairs hash the same text.
    const text = new TextEncoder().encode(`${fields.issuer}\n${fields.subject}`);
    const digest = await globalThis.crypto.subtle.digest("SHA-256", text);
    id = `oauth:${base64url.encode(new Uint8Array(digest))}`;
  }
  return { kind: "oauth", id, ...fields };
}
