import { request as httpRequest, type IncomingMessage } from "node:http";

/** An SSE response that the client never reads (a stalled or hostile reader). */
export interface StalledSse {
  readonly status: number;
  /**
   * Starts reading again and resolves when the connection has closed; a paused socket never sees
   * the server's end, so the test calls this once the server broke the stream off.
   */
  drainUntilClosed(): Promise<void>;
  /** Drops the connection from the client side. */
  destroy(): void;
}

/** Opens a GET (or POST) SSE request and stops reading its body once the headers arrived. */
export function openStalledSse(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<StalledSse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? "GET", headers: init.headers ?? {} });
    request.on("error", reject);
    request.on("response", (response: IncomingMessage) => {
      response.pause();
      const closed = new Promise<void>((done) => {
        response.on("close", () => done());
      });
      response.on("error", () => {});
      resolve({
        status: response.statusCode ?? 0,
        drainUntilClosed: () => {
          response.resume();
          return closed;
        },
        destroy: () => request.destroy(),
      });
    });
    request.end(init.body);
  });
}
