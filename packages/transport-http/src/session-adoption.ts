import type { IncomingMessage } from "node:http";

/** What `StreamableHttpHandler.adoptSession` needs to serve a session another process created. */
export interface StreamableHttpAdoption<Request = IncomingMessage> {
  /** The revision the session negotiated where it was created. */
  readonly protocolVersion: string;
  /** The request that found the session missing here; handed to `onSession`. */
  readonly request: Request;
  /** The caller's `authenticate` info, as a request of the session's creator would carry. */
  readonly authInfo: unknown;
  /** The caller's explicit identity, when the `authenticate` hook names one. */
  readonly identity?: string | undefined;
}
