import { GatewayErrorCode } from "./gateway-error-code.js";

/** The `error` member of a JSON-RPC error response. */
export interface WireErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** JSON-RPC "Invalid params"; MCP uses it for unknown tools, prompts, resources and bad cursors. */
export const INVALID_PARAMS = -32602;

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

/**
 * Maps whatever a request to `backend` failed with to the error the client receives (the one table
 * of local-to-wire mapping, DESIGN.md "Errors"):
 * - an error the backend sent keeps its code and message; `data` gains `backend` and
 *   `originalError` (the backend's own error object), and keeps the backend's fields when it was
 *   an object;
 * - local failures (`REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, `TRANSPORT_FAILURE`...) become gateway
 *   errors that name the backend.
 */
export function mapBackendError(error: unknown, backend: string): WireErrorObject {
  if (isWireError(error)) {
    const originalError: WireErrorObject =
      error.data === undefined
        ? { code: error.code, message: error.message }
        : { code: error.code, message: error.message, data: error.data };
    const kept = isRecord(error.data) ? error.data : {};
    return {
      code: error.code,
      message: error.message,
      data: { ...kept, backend, originalError },
    };
  }
  const localCode = isRecord(error) && typeof error.code === "string" ? error.code : undefined;
  const detail = error instanceof Error ? error.message : String(error);
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

/** The error for a backend that is not running. */
export function backendUnavailableError(backend: string, status: string): WireErrorObject {
  return createGatewayError(
    GatewayErrorCode.BackendUnavailable,
    `Backend "${backend}" is unavailable (${status})`,
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
