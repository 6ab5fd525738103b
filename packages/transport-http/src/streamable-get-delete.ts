import { LAST_EVENT_ID_HEADER } from "./constants.js";
import { type EndpointContext, findSession, sessionHeaders } from "./endpoint-context.js";
import { accepts, HTTP_ERROR_CODE, headerValue, writeJsonError } from "./http-answers.js";
import type { HttpRequestView, HttpResponseSink } from "./http-io.js";
import { checkProtocolVersion } from "./read-post-frame.js";

/** GET: opens (or resumes, with `Last-Event-ID`) a session's standalone SSE stream. */
export async function handleStreamableGet(
  context: EndpointContext,
  request: HttpRequestView,
  response: HttpResponseSink,
  identity: string | undefined,
): Promise<void> {
  if (!context.standaloneEnabled) {
    const allow = context.stateless ? context.allowed : "POST, DELETE";
    writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed: no standalone stream", {
      allow,
    });
    return;
  }
  if (!accepts(headerValue(request, "accept"), "text/event-stream")) {
    writeJsonError(
      response,
      406,
      HTTP_ERROR_CODE,
      "Not Acceptable: Client must accept text/event-stream",
    );
    return;
  }
  if (checkProtocolVersion(request, response, context.supported) === false) return;
  const transport = findSession(context, request, response, identity);
  if (transport === undefined) return;
  const lastEventId = headerValue(request, LAST_EVENT_ID_HEADER);
  if (lastEventId !== undefined) {
    const outcome = await transport.resume(lastEventId, response, sessionHeaders(transport));
    if (outcome === "resumed") return;
    if (outcome === "conflict") {
      writeJsonError(response, 409, HTTP_ERROR_CODE, "Conflict: stream is already connected");
      return;
    }
    // An unknown or expired event id: fall through to a fresh standalone stream.
  }
  if (!(await transport.openStandalone(response, sessionHeaders(transport)))) {
    writeJsonError(
      response,
      409,
      HTTP_ERROR_CODE,
      "Conflict: only one standalone SSE stream is allowed per session",
    );
  }
}

/** DELETE: ends the session (only its creator may). */
export async function handleStreamableDelete(
  context: EndpointContext,
  request: HttpRequestView,
  response: HttpResponseSink,
  identity: string | undefined,
): Promise<void> {
  if (checkProtocolVersion(request, response, context.supported) === false) return;
  const transport = findSession(context, request, response, identity);
  if (transport === undefined) return;
  transport.end({ initiator: "remote", details: { reason: "deleted" } });
  response.writeHead(200, sessionHeaders(transport));
  response.end();
}
