import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  runProxyCli,
  sampleEntry,
  startServingCli,
  writeConfig,
} from "./proxy-helpers.js";

describe("patchbay-proxy", () => {
  it("serves the bundled demo without --config and prints the endpoint and a client snippet", async () => {
    const cli = await startServingCli(["--log-format", "json"]);
    expect(cli.stdout()).toContain('"type": "http"');
    expect(cli.stdout()).toContain(`"url": "${cli.url.href}"`);
    expect(cli.stdout()).toContain(`claude mcp add --transport http patchbay ${cli.url.href}`);
    expect(cli.stdout()).toMatch(/"command": "npx",\s+"args": \[\s+"mcp-remote",/);
    expect(cli.stdout()).toContain(`WebSocket: ws://${cli.url.host}/ws`);
    expect(cli.stdout()).toContain(`dashboard: ${cli.url.origin}/dashboard`);
    // A browser opening the proxy's root gets the same list and snippets as a page.
    const index = await fetch(new URL("/", cli.url), { headers: { accept: "text/html" } });
    expect(index.status).toBe(200);
    const page = await index.text();
    expect(page).toContain("<title>patchbay-proxy</title>");
    expect(page).toContain(`<code>${cli.url.origin}/dashboard</code>`);
    const connected = await connectSdk(cli.url);
    const result = await connected.client.callTool({
      name: "sample__add",
      arguments: { a: 1, b: 2 },
    });
    expect(result.structuredContent).toEqual({ sum: 3 });
    await closeSdk(connected);
    const exited = once(cli.child, "exit");
    cli.child.kill("SIGTERM");
    expect(await exited).toEqual([0, null]);
    const lines = cli
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      level: "warn",
      message: expect.stringContaining("serving without auth, bound to loopback"),
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        kind: "rpc",
        method: "tools/call",
        tool: "sample__add",
        backend: "sample",
        status: "ok",
        client: "anonymous",
        durationMs: expect.any(Number),
        traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    );
  });

  it("refuses to serve a non-loopback address without auth", async () => {
    const { code, stderr } = await runProxyCli(["--host", "0.0.0.0", "--port", "0"]);
    expect(code).toBe(1);
    expect(stderr).toContain("refusing to serve 0.0.0.0 without auth");
  });

  it("says in one line that its port is in use, and exits 1", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    try {
      const { code, stderr } = await runProxyCli(["--port", String(port)]);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `patchbay-proxy: port ${port} on 127.0.0.1 is in use; pass --port <another port> (0 picks a free one)\n`,
      );
      expect(stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("on SIGTERM lets a call in flight finish, then exits 0", async () => {
    const config = writeConfig({ mcpServers: { sample: sampleEntry() } });
    const cli = await startServingCli(["--config", config.path]);
    const connected = await connectSdk(cli.url);
    let signalled = false;
    const call = connected.client.callTool(
      { name: "sample__long_task", arguments: { steps: 3, stepMs: 200 } },
      undefined,
      {
        onprogress: () => {
          // The call is running at the backend: ask the proxy to stop now.
          if (!signalled) cli.child.kill("SIGTERM");
          signalled = true;
        },
      },
    );
    const exited = once(cli.child, "exit");
    expect((await call).content).toEqual([{ type: "text", text: "Completed 3 steps" }]);
    expect(await exited).toEqual([0, null]);
    expect(cli.stderr()).toContain("SIGTERM: draining");
    await connected.client.close();
    config.remove();
  });
});
