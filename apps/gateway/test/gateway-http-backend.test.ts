import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

/** Starts the sample backend over HTTP (`http`, `sse` or `ws`) on a free port; resolves its URL. */
async function startSampleBackend(
  transport: "http" | "sse" | "ws",
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [backends.sample, "--transport", transport, "--port", "0"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`sample backend exited with ${code}: ${stderr}`)),
    );
  });
  return { child, url };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

describe("backends over stdio, and remote ones over Streamable HTTP, HTTP+SSE, WebSocket and auto-detection", () => {
  let http: { child: ChildProcess; url: string } | undefined;
  let sse: { child: ChildProcess; url: string } | undefined;
  let ws: { child: ChildProcess; url: string } | undefined;
  let gateway: Awaited<ReturnType<typeof connectGateway>> | undefined;

  beforeAll(async () => {
    [http, sse, ws] = await Promise.all([
      startSampleBackend("http"),
      startSampleBackend("sse"),
      startSampleBackend("ws"),
    ]);
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: {
        stdio: { command: process.execPath, args: [backends.sample, "--transport", "stdio"] },
        http: { url: http.url, transport: "http", headers: { "X-Test": "yes" } },
        autohttp: { url: http.url },
        sse: { url: sse.url, type: "sse" },
        autosse: { url: sse.url },
        // A ws:// URL is reached over WebSocket without saying so.
        websocket: { url: ws.url },
      },
    });
    gateway = await connectGateway(path);
  }, 30_000);

  afterAll(async () => {
    await gateway?.client.close();
    await Promise.all([stop(http?.child), stop(sse?.child), stop(ws?.child)]);
  });

  it.each(["stdio", "http", "autohttp", "sse", "autosse", "websocket"])(
    "lists and calls the tools of %s",
    async (name) => {
      // Six sample backends expose more tools than one page (100) holds: read every page.
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await gateway!.client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(names).toContain(`${name}__echo`);
      const result = await gateway?.client.callTool({
        name: `${name}__echo`,
        arguments: { message: "far" },
      });
      expect(result?.isError).not.toBe(true);
      expect(JSON.stringify(result?.content)).toContain("far");
    },
  );

  it("shows each transport in gateway_status", async () => {
    const result = await gateway?.client.callTool({ name: "gateway_status" });
    const status = result?.structuredContent as {
      backends: Record<string, { status: string; transport: string }>;
    };
    expect(status.backends).toMatchObject({
      stdio: { status: "running", transport: "stdio" },
      http: { status: "running", transport: "http" },
      autohttp: { status: "running", transport: "auto" },
      sse: { status: "running", transport: "sse" },
      autosse: { status: "running", transport: "auto" },
      websocket: { status: "running", transport: "ws" },
    });
  });
});
