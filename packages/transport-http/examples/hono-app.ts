import { Hono } from "hono";
import { createEchoEndpoint } from "./web-echo-endpoint.js";

/**
 * Mounts the web handler in a Hono app: the route hands Hono's web `Request` over and returns the
 * `Response`, so it runs wherever Hono runs (Node through `@hono/node-server`, Bun, Deno, Workers).
 */
export function createHonoApp() {
  const mcp = createEchoEndpoint();
  const app = new Hono();
  app.get("/healthz", (context) => context.text("ok"));
  app.all("/mcp", (context) => mcp.handleRequest(context.req.raw));
  return { app, mcp };
}
