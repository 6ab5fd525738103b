import { createEchoEndpoint } from "./web-echo-endpoint.js";

/** The part of Bun's API used here (`bun-types` declares all of it). */
interface BunServe {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request) => Promise<Response>;
  }): unknown;
}

/** The part of Deno's API used here (Deno's own types declare all of it). */
interface DenoServe {
  serve(
    options: { hostname: string; port: number },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
}

/** The endpoint (its `close()` ends every session). */
export const mcp = createEchoEndpoint();

/** The fetch handler both runtimes take; every other path gets 404. */
export async function handle(request: Request): Promise<Response> {
  if (new URL(request.url).pathname !== "/mcp") return new Response("Not Found", { status: 404 });
  return mcp.handleRequest(request);
}

/** Serves `handle` on 127.0.0.1:3000 under Bun (`Bun.serve({ fetch })`) or Deno (`Deno.serve`). */
export function serve(): unknown {
  const runtime = globalThis as { Bun?: BunServe; Deno?: DenoServe };
  if (runtime.Bun !== undefined) {
    return runtime.Bun.serve({ hostname: "127.0.0.1", port: 3000, fetch: handle });
  }
  if (runtime.Deno !== undefined) {
    return runtime.Deno.serve({ hostname: "127.0.0.1", port: 3000 }, handle);
  }
  throw new Error("run this file with Bun or Deno; on Node, mount the handler with a node adapter");
}
