import { ErrorCode } from "@patchbay/jsonrpc-core";
import { redact as builtInRedact, type Redact } from "@patchbay/telemetry";
import { GatewayErrorCode } from "./gateway-error-code.js";
import { signInRequiredOf } from "./sign-in-required.js";

/** The `error` member of a JSON-RPC error response. */
export interface WireErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** JSON-RPC "Invalid params"; MCP uses it for unknown tools, prompts, resources and bad cursors. */
export const INVALID_PARAMS = ErrorCode.InvalidParams;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for an error that came over the wire from a peer: numeric `code`, string `message`. */
export function isWireError(value: unknown): value is WireErrorObject {
  return (
    isRecord(value) &&
    typeof value.code === "number" &&
    Number.isInteger(value.code) &&
    typeof value.message === "string"
  );
}

/** Makes a gateway error whose `data` names the backend it is about. */
export function createGatewayError(
  code: GatewayErrorCode,
  message: string,
  data: Record<string, unknown> = {},
): WireErrorObject {
  return { code, message, data };
}

/** Options of {@link mapBackendError}. */
export interface MapBackendErrorOptions {
  /** Masks secrets in what reaches the client (default: the built-in rules of `@patchbay/telemetry`). */
  readonly redact?: Redact;
}

/**
 * The fields of a backend error's `data` that reach clients: those MCP defines (`uri` and `name`
 * of not-found errors, `supported`/`requested` of a version mismatch, `elicitations` of -32042,
 * `requiredCapabilities` of -32021) and a `reason`. Anything else a backend puts there (stack traces, paths, internal state) stays out.
 */
export const ERROR_DATA_ALLOW_LIST: readonly string[] = [
  "uri",
  "name",
  "supported",
  "requested",
  "elicitations",
  "requiredCapabilities",
  "reason",
];

/** Longest error message passed on from a backend, in characters; longer ones are cut. */
export const MAX_ERROR_MESSAGE_LENGTH = 1024;

/** Largest allowed `data` field (as JSON, in characters); a larger one is left out. */
export const MAX_ERROR_DATA_FIELD_LENGTH = 4096;

/** Longest `detail` (the message of a local failure, first line only) shown to a client. */
export const MAX_ERROR_DETAIL_LENGTH = 200;

function bounded(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}... (${text.length - max} more characters)`;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A backend's `data` as clients see it: allow-listed fields of an object, a short string, or none. */
function allowedData(data: unknown, redact: Redact): Record<string, unknown> | string | undefined {
  if (typeof data === "string") return redact(bounded(data, MAX_ERROR_MESSAGE_LENGTH));
  if (!isRecord(data)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const key of ERROR_DATA_ALLOW_LIST) {
    const value = data[key];
    if (value === undefined || !Object.hasOwn(data, key)) continue;
    if (jsonLength(value) <= MAX_ERROR_DATA_FIELD_LENGTH) kept[key] = redact(value);
  }
  return kept;
}

/**
 * Maps whatever a request to `backend` failed with to the error the client receives (the one table
 * of local-to-wire mapping, docs/architecture.md, "Errors"):
 * - an error the backend sent keeps its code and message (redacted, at most
 *   {@link MAX_ERROR_MESSAGE_LENGTH} characters); `data` gains `backend` and `originalError` (the
 *   backend's code, message and `data`), and of the backend's own `data` only the fields of
 *   {@link ERROR_DATA_ALLOW_LIST}, each at most {@link MAX_ERROR_DATA_FIELD_LENGTH} characters of
 *   JSON, redacted;
 * - local failures (`REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, `TRANSPORT_FAILURE`...) become gateway
 *   errors that name the backend, with a `detail` that is the first line of the failure's message,
 *   redacted and at most {@link MAX_ERROR_DETAIL_LENGTH} characters (never a stack).
 */
export function mapBackendError(
  error: unknown,
  backend: string,
  options: MapBackendErrorOptions = {},
): WireErrorObject {
  const redact = options.redact ?? builtInRedact;
  if (isWireError(error)) {
    const message = redact(bounded(error.message, MAX_ERROR_MESSAGE_LENGTH));
    const data = allowedData(error.data, redact);
    const originalError: WireErrorObject =
      data === undefined
        ? { code: error.code, message }
        : { code: error.code, message, data: typeof data === "string" ? data : { ...data } };
    const kept = typeof data === "object" ? data : {};
    return { code: error.code, message, data: { ...kept, backend, originalError } };
  }
  // A token that expired for good while it ran: say what to run rather than "could not reach".
  const signIn = signInRequiredOf(error);
  if (signIn !== undefined) {
    return backendUnavailableError(backend, "needs_sign_in", redact(signIn.message));
  }
  const localCode = isRecord(error) && typeof error.code === "string" ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const detail = redact(bounded(message.split("\n", 1)[0] ?? "", MAX_ERROR_DETAIL_LENGTH));
  switch (localCode) {
    case "REQUEST_TIMEOUT":
      return createGatewayError(
        GatewayErrorCode.BackendTimeout,
        `Backend "${backend}" did not answer in time`,
        { backend, detail },
      );
    case "CONNECTION_CLOSED":
      return createGatewayError(
        GatewayErrorCode.BackendConnectionClosed,
        `Backend "${backend}" closed the connection before answering`,
        { backend, detail },
      );
    case "TRANSPORT_FAILURE":
      return createGatewayError(
        GatewayErrorCode.BackendTransportFailed,
        `Could not reach backend "${backend}"`,
        { backend, detail },
      );
    case "LINE_TOO_LONG":
      return responseTooLargeError(error, backend);
    default:
      return createGatewayError(
        GatewayErrorCode.GatewayInternalError,
        `Request to backend "${backend}" failed`,
        { backend, detail },
      );
  }
}

/** A response dropped for its size (jsonrpc-core's LineTooLongError, read structurally). */
function responseTooLargeError(error: unknown, backend: string): WireErrorObject {
  const limit = isRecord(error) ? error.maxLineBytes : undefined;
  const size = isRecord(error) ? error.lineBytes : undefined;
  const sizeText = typeof size === "number" ? ` of ${size} bytes` : "";
  return createGatewayError(
    GatewayErrorCode.BackendResponseTooLarge,
    `The response of backend "${backend}"${sizeText} is over its limit of ${String(limit)} bytes (maxMessageBytes)`,
    { backend, limitBytes: limit, responseBytes: size },
  );
}

/**
 * The error for a backend that is not running; `hint` (what a person must do, such as the command
 * that signs in) is added to the message.
 */
export function backendUnavailableError(
  backend: string,
  status: string,
  hint?: string,
): WireErrorObject {
  return createGatewayError(
    GatewayErrorCode.BackendUnavailable,
    `Backend "${backend}" is unavailable (${status})${hint === undefined ? "" : `: ${hint}`}`,
    { backend, status },
  );
}

/** The -32602 for a tool, prompt or resource no backend exposes (as the MCP specification says). */
export function unknownNameError(
  kind: "tool" | "prompt" | "resource",
  name: string,
): WireErrorObject {
  const noun = kind === "resource" ? "Resource" : kind === "tool" ? "Tool" : "Prompt";
  return {
    code: INVALID_PARAMS,
    message: `${noun} not found: ${name}`,
    data: kind === "resource" ? { uri: name } : { name },
  };
}
