import { request as httpRequest, type IncomingMessage } from "node:http";

/** A legacy SSE stream whose client read the `endpoint` event and then stopped reading. */
export interface StalledStream {
  /** The POST URL from the `endpoint` event, absolute. */
  readonly endpoint: string;
  /** Starts reading again and resolves once the connection has closed. */
  drainUntilClosed(): Promise<void>;
}

/** Opens the SSE stream, waits for the `endpoint` event, then never reads again. */
export function openStalledStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<StalledStream> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { accept: "text/event-stream", ...headers } });
    request.on("error", reject);
    request.on("response", (response: IncomingMessage) => {
      const closed = new Promise<void>((done) => response.on("close", () => done()));
      response.on("error", () => {});
      let text = "";
      const onData = (chunk: Buffer) => {
        text += chunk.toString("utf8");
        const match = /event: endpoint\ndata: (.*)\n/.exec(text);
        if (match === null) return;
        response.off("data", onData);
        response.pause();
        resolve({
          endpoint: new URL(match[1] as string, url).href,
          drainUntilClosed: () => {
            response.resume();
            return closed;
          },
        });
      };
      response.on("data", onData);
    });
    request.end();
  });
}
