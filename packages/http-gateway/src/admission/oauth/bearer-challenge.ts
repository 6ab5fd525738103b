/** The `error` codes of an RFC 6750 bearer challenge. */
export type BearerError = "invalid_request" | "invalid_token" | "insufficient_scope";

/** What one `WWW-Authenticate: Bearer ...` value says. */
export interface BearerChallenge {
  /** Where the client finds the Protected Resource Metadata (RFC 9728 section 5.1). */
  readonly resourceMetadata: string;
  /** The scope that would open the endpoint, when one does. */
  readonly scope?: string | undefined;
  readonly error?: BearerError | undefined;
  /** Human-readable and fixed by the gateway: never text taken from the token. */
  readonly errorDescription?: string | undefined;
}

// RFC 6750 section 3: the values are quoted strings limited to %x20-21 / %x23-5B / %x5D-7E, so a
// quote, a backslash or a control character can never end the value or start a header.
function quoted(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "")}"`;
}

/** Formats a challenge: `Bearer error="...", error_description="...", scope="...", resource_metadata="..."`. */
export function formatBearerChallenge(challenge: BearerChallenge): string {
  const parts: string[] = [];
  if (challenge.error !== undefined) parts.push(`error=${quoted(challenge.error)}`);
  if (challenge.errorDescription !== undefined) {
    parts.push(`error_description=${quoted(challenge.errorDescription)}`);
  }
  if (challenge.scope !== undefined) parts.push(`scope=${quoted(challenge.scope)}`);
  parts.push(`resource_metadata=${quoted(challenge.resourceMetadata)}`);
  return `Bearer ${parts.join(", ")}`;
}
