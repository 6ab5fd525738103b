/** The text that replaces a secret. */
export const REDACTED = "[REDACTED]";

/** Masks secrets in any value (deep, without mutating it). The same function serves every sink and the metric labels. */
export type Redact = <T>(value: T) => T;

/** What {@link createRedactor} treats as secret, besides the built-in rules. */
export interface RedactorOptions {
  /**
   * Object keys whose values are masked entirely, compared without case and ignoring `-` and `_`
   * (so `apiKey` also covers `api_key` and `API-KEY`). Added to {@link DEFAULT_SECRET_KEYS}.
   */
  readonly secretKeys?: readonly string[];
  /**
   * Literal secrets (for example every value of a backend's `env` block, or configured tokens)
   * masked wherever they appear inside a string. Values shorter than 4 characters are ignored, since
   * masking them would garble unrelated text.
   */
  readonly secretValues?: readonly string[];
  /** Replace the built-in key list instead of adding to it. */
  readonly replaceDefaultKeys?: boolean;
  /** Nesting depth past which values are replaced by `[TRUNCATED]` (default 12). */
  readonly maxDepth?: number;
}

/**
 * Keys masked by default: HTTP credentials (`Authorization`, `Proxy-Authorization`, `Cookie`,
 * `Set-Cookie`, `X-Api-Key`), common secret names, and `env` (a process environment block: every
 * value is masked, the names are kept).
 */
export const DEFAULT_SECRET_KEYS: readonly string[] = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "apikey",
  "password",
  "passwd",
  "secret",
  "client-secret",
  "token",
  "access-token",
  "refresh-token",
  "id-token",
  "bearer",
  "private-key",
];

// RFC 6750 section 2.1 b64token, plus Basic credentials (RFC 7617) which are just as secret.
// Basic needs 8+ characters so prose such as "Basic setup" survives.
const schemePattern = /\b(?:(Bearer)\s+[A-Za-z0-9\-._~+/]+=*|(Basic)\s+[A-Za-z0-9+/]{8,}=*)/gi;
const schemeHint = /bearer|basic/i;
const minimumSecretValueLength = 4;
const maxCachedKeys = 4096;

type KeyKind = "plain" | "secret" | "env";

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, "");
}

// A JSON-parsed `__proto__` key is an own property; plain assignment would set the prototype instead.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Builds a {@link Redact} function from the options. */
export function createRedactor(options: RedactorOptions = {}): Redact {
  const keys = new Set<string>(
    [...(options.replaceDefaultKeys ? [] : DEFAULT_SECRET_KEYS), ...(options.secretKeys ?? [])].map(
      normalizeKey,
    ),
  );
  const values = [...new Set(options.secretValues ?? [])]
    .filter((value) => value.length >= minimumSecretValueLength)
    // Longest first, so a secret containing another is masked whole.
    .sort((a, b) => b.length - a.length);
  const valuePattern =
    values.length > 0 ? new RegExp(values.map(escapeRegExp).join("|"), "g") : undefined;
  const maxDepth = options.maxDepth ?? 12;
  // Object keys repeat endlessly (`method`, `params`, ...): classify each once, in a bounded cache.
  const keyKinds = new Map<string, KeyKind>();

  const kindOf = (key: string): KeyKind => {
    let kind = keyKinds.get(key);
    if (kind === undefined) {
      const normalized = normalizeKey(key);
      kind = normalized === "env" ? "env" : keys.has(normalized) ? "secret" : "plain";
      if (keyKinds.size < maxCachedKeys) keyKinds.set(key, kind);
    }
    return kind;
  };

  const redactString = (text: string): string => {
    const result = valuePattern === undefined ? text : text.replace(valuePattern, REDACTED);
    // A cheap test first: most strings name no credential scheme at all.
    if (result.length < 8 || !schemeHint.test(result)) return result;
    return result.replace(
      schemePattern,
      (_match, bearer: string | undefined, basic: string | undefined) =>
        `${bearer ?? basic} ${REDACTED}`,
    );
  };

  const maskAll = (value: unknown): unknown => {
    if (value !== null && typeof value === "object") {
      if (Array.isArray(value)) return value.map(() => REDACTED);
      const masked: Record<string, unknown> = {};
      for (const key of Object.keys(value)) setOwn(masked, key, REDACTED);
      return masked;
    }
    return REDACTED;
  };

  // `path` holds the objects being visited, for cycle detection (depth is small, so a list is cheap).
  const visit = (value: unknown, path: object[]): unknown => {
    if (typeof value === "string") return redactString(value);
    if (value === null || typeof value !== "object") return value;
    if (path.length >= maxDepth) return "[TRUNCATED]";
    if (path.includes(value)) return "[CIRCULAR]";
    path.push(value);
    let result: unknown;
    if (Array.isArray(value)) {
      // Header lists in the [name, value] pair form, as in fetch's Headers entries.
      if (value.length === 2 && typeof value[0] === "string" && kindOf(value[0]) === "secret") {
        result = [value[0], REDACTED];
      } else {
        result = value.map((item) => visit(item, path));
      }
    } else if (value instanceof Error) {
      result = { name: value.name, message: redactString(value.message) };
    } else {
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        const kind = kindOf(key);
        const redacted =
          kind === "plain" ? visit(item, path) : kind === "env" ? maskAll(item) : REDACTED;
        setOwn(copy, key, redacted);
      }
      result = copy;
    }
    path.pop();
    return result;
  };

  return <T>(value: T): T =>
    (typeof value === "string" ? redactString(value) : visit(value, [])) as T;
}

/** A {@link Redact} with only the built-in rules (bearer/basic credentials and default keys). */
export const redact: Redact = createRedactor();
