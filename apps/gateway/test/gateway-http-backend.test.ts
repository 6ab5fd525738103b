import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

/** Starts the sample backend over Streamable HTTP on a free port and resolves its MCP URL. */
async function startHttpBackend(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [backends.sample, "--transport", "http", "--port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
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

describe("a backend reached over Streamable HTTP", () => {
  let backend: { child: ChildProcess; url: string };
  let gateway: Awaited<ReturnType<typeof connectGateway>>;

  beforeAll(async () => {
    backend = await startHttpBackend();
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: { remote: { url: backend.url, headers: { "X-Test": "yes" } } },
    });
    gateway = await connectGateway(path);
  }, 30_000);

  afterAll(async () => {
    await gateway?.client.close();
    if (backend && backend.child.exitCode === null) {
      const exited = once(backend.child, "exit");
      backend.child.kill("SIGTERM");
      await exited;
    }
  });

  it("is listed and called like a local one", async () => {
    const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("remote__echo");
    const result = await gateway.client.callTool({
      name: "remote__echo",
      arguments: { message: "far" },
    });
    expect(result.isError).not.toBe(true);
    expect(JSON.stringify(result.content)).toContain("far");
  });

  it("shows the http transport in gateway_status", async () => {
    const result = await gateway.client.callTool({ name: "gateway_status" });
    const status = result.structuredContent as {
      backends: Record<string, { status: string; transport: string }>;
    };
    expect(status.backends.remote).toMatchObject({ status: "running", transport: "http" });
  });
});
