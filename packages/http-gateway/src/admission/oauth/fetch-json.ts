import { LocalError } from "@patchbay/jsonrpc-core";
import { ResponseTooLargeError, readTextLimited } from "@patchbay/transport-http/client";

/** The `fetch` the OAuth code calls (the global one by default; tests and runtimes pass their own). */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** Raised when an authorization server's document cannot be had: unreachable, not 2xx, too big, not JSON. */
export class OAuthFetchError extends LocalError {
  /** The HTTP status when the server answered, else `undefined`. */
  readonly status: number | undefined;
  /** Creates an error about `url`; `status` when the server answered. */
  constructor(url: string, problem: string, status?: number, cause?: unknown) {
    super("OAUTH_FETCH_FAILED", `${url}: ${problem}`, cause === undefined ? {} : { cause });
    this.name = "OAuthFetchError";
    this.status = status;
  }
}

/** Limits of one fetch. */
export interface FetchJsonLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/**
 * Fetches a JSON object with a deadline and a size bound, so a slow or hostile server can neither
 * hold a verification open nor fill memory. Throws {@link OAuthFetchError} for anything but a 2xx
 * answer whose body is a JSON object.
 */
export async function fetchJson(
  fetch: FetchFunction,
  url: string,
  limits: FetchJsonLimits,
  init: RequestInit = {},
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { accept: "application/json", ...(init.headers as Record<string, string>) },
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
  } catch (error) {
    throw new OAuthFetchError(url, "unreachable", undefined, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new OAuthFetchError(url, `answered HTTP ${response.status}`, response.status);
  }
  if (Number(response.headers.get("content-length") ?? "0") > limits.maxBytes) {
    await response.body?.cancel();
    throw new OAuthFetchError(url, `larger than ${limits.maxBytes} bytes`, response.status);
  }
  let text: string;
  try {
    text = await readTextLimited(response, limits.maxBytes);
  } catch (error) {
    const problem =
      error instanceof ResponseTooLargeError
        ? `larger than ${limits.maxBytes} bytes`
        : "the answer broke off";
    throw new OAuthFetchError(url, problem, response.status, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OAuthFetchError(url, "the answer is not JSON", response.status);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OAuthFetchError(url, "the answer is not a JSON object", response.status);
  }
  return value as Record<string, unknown>;
}
