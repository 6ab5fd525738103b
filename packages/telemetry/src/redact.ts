/** The text that replaces a secret. */
export const REDACTED = "[REDACTED]";

/** Masks secrets in any value (deep, without mutating it). The same function serves every sink and the metric labels. */
export type Redact = <T>(value: T) => T;

/** A {@link Redact} that can learn more literal secrets later (a reloaded config, say). */
export interface Redactor {
  <T>(value: T): T;
  /**
   * Adds literal secrets, masked wherever they appear in a string from now on (values shorter than
   * 4 characters are ignored, as for `secretValues`). Secrets are never forgotten.
   */
  addSecretValues(values: Iterable<string>): void;
}

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
// Basic needs 8+ characters so prose such as "Basic setup" survives; so does the prose "bearer
// token(s)" (the word alone, not a credential that starts with it, such as `token.abc`).
const schemePattern =
  /\b(?:(Bearer)\s+(?!tokens?(?![A-Za-z0-9\-._~+/=]))[A-Za-z0-9\-._~+/]+=*|(Basic)\s+[A-Za-z0-9+/]{8,}=*)/gi;
const schemeHint = /bearer|basic/i;
// Credentials in URLs: the user info (`https://user:pass@host`) and the values of query parameters
// whose name sounds secret (`?api_key=...`). Written so that no input makes them backtrack: user
// info stops at the first `/`, `?`, `#`, `@` or space, and parameter names are at most 64 characters.
const userInfoPattern = /:\/\/[^\s/?#@]+@/g;
const queryParameterPattern = /([?&;])([A-Za-z0-9_.-]{1,64})=([^&#\s"'<>]*)/g;
const secretParameterName = /key|token|secret|passw|pwd|auth|credential|signature|sig$/i;
// `Authorization: <value>` and kin written as text (an argument such as `--header "X-Api-Key: k"`).
const headerTextPattern =
  /\b((?:proxy-)?authorization|x-api-key|api-key|cookie)(\s*[:=]\s*)(?:(bearer|basic|token)\s+)?([^\s"',;]+)/gi;
const headerTextHint = /authorization|api-key|cookie/i;
// One scan that every rule below needs a match of; most strings have none and stop here.
const anyRuleHint = /bearer|basic|authorization|api-key|cookie|:\/\/|=/i;
const minimumSecretValueLength = 4;
const maxCachedKeys = 4096;
// Short strings recur on every message (methods, tool names, `incoming`, `success`): redact each once.
const maxCachedStrings = 4096;
const maxCachedStringLength = 256;

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

function maskUrlCredentials(text: string): string {
  let result = text;
  if (result.includes("://") && result.includes("@")) {
    result = result.replace(userInfoPattern, `://${REDACTED}@`);
  }
  if (result.includes("=")) {
    result = result.replace(
      queryParameterPattern,
      (match, lead: string, name: string, value: string) =>
        value !== "" && value !== REDACTED && secretParameterName.test(name)
          ? `${lead}${name}=${REDACTED}`
          : match,
    );
  }
  return result;
}

function maskHeaderText(text: string): string {
  if (!headerTextHint.test(text)) return text;
  return text.replace(
    headerTextPattern,
    (match, name: string, separator: string, scheme: string | undefined, value: string) =>
      value === REDACTED ? match : `${name}${separator}${scheme ? `${scheme} ` : ""}${REDACTED}`,
  );
}

/** Builds a {@link Redactor} from the options. */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const keys = new Set<string>(
    [...(options.replaceDefaultKeys ? [] : DEFAULT_SECRET_KEYS), ...(options.secretKeys ?? [])].map(
      normalizeKey,
    ),
  );
  const secretValues = new Set<string>();
  let valuePattern: RegExp | undefined;
  const addSecretValues = (added: Iterable<string>): void => {
    const before = secretValues.size;
    for (const value of added) {
      if (typeof value === "string" && value.length >= minimumSecretValueLength) {
        secretValues.add(value);
      }
    }
    if (secretValues.size === before) return;
    // Longest first, so a secret containing another is masked whole.
    const values = [...secretValues].sort((a, b) => b.length - a.length);
    valuePattern = new RegExp(values.map(escapeRegExp).join("|"), "g");
    // What was clean before may hold a secret learnt now.
    strings.clear();
  };
  const strings = new Map<string, string>();
  addSecretValues(options.secretValues ?? []);
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
    if (text.length > maxCachedStringLength) return redactUncached(text);
    let result = strings.get(text);
    if (result === undefined) {
      result = redactUncached(text);
      if (strings.size >= maxCachedStrings) strings.clear();
      strings.set(text, result);
    }
    return result;
  };

  const redactUncached = (text: string): string => {
    let result = valuePattern === undefined ? text : text.replace(valuePattern, REDACTED);
    // Cheap tests first: most strings are short and name no credential at all.
    if (result.length < 8 || !anyRuleHint.test(result)) return result;
    result = maskUrlCredentials(maskHeaderText(result));
    if (!schemeHint.test(result)) return result;
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
        // The caches are read inline and scalars kept without a call: events' data is mostly a
        // few known keys with short strings and numbers, redacted when a sink or a query reads it.
        const kind = keyKinds.get(key) ?? kindOf(key);
        let redacted: unknown;
        if (kind !== "plain") redacted = kind === "env" ? maskAll(item) : REDACTED;
        else if (typeof item === "string") redacted = strings.get(item) ?? redactString(item);
        else if (item === null || typeof item !== "object") redacted = item;
        else redacted = visit(item, path);
        if (key === "__proto__") setOwn(copy, key, redacted);
        else copy[key] = redacted;
      }
      result = copy;
    }
    path.pop();
    return result;
  };

  const redactor = <T>(value: T): T =>
    (typeof value === "string"
      ? (strings.get(value) ?? redactString(value))
      : visit(value, [])) as T;
  return Object.assign(redactor, { addSecretValues });
}

/**
 * A {@link Redact} with only the built-in rules (bearer/basic credentials, credentials in URLs,
 * `Authorization`-like header text, default keys).
 */
export const redact: Redact = createRedactor();
