import { type ChildProcess, execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type Client, type ClientOptions, createClient } from "@patchbay/client";
import type { Transport } from "@patchbay/jsonrpc-core";
import type { ProtocolEra } from "@patchbay/mcp-types";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Real child processes of the built bin (turbo builds the package before its tests).
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const LEGACY_ONLY = ["--protocol-versions", "2025-11-25"];
const MODERN_ONLY = ["--protocol-versions", "2026-07-28"];

function stdio(args: string[]): Transport {
  return createStdioClientTransport({
    command: process.execPath,
    args: [bin, "--transport", "stdio", ...args],
    stderr: "ignore",
  });
}

/** Starts the bin over HTTP on a free port; resolves once it printed its URL. */
function startHttp(args: string[]): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, "--transport", "http", "--port", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /listening on (\S+)/.exec(text);
      if (match?.[1] !== undefined) resolve({ url: new URL(match[1]), child });
    });
    child.once("exit", (code) => reject(new Error(`the backend exited with ${code}: ${text}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const ELICITING: ClientOptions = {
  elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
};

async function connect(transport: Transport, options: ClientOptions): Promise<Client> {
  const client = createClient({ name: "era-test", version: "1.0.0" }, options);
  await client.connect(transport);
  return client;
}

/** What every era test checks once connected: the era, and a tool call that works in it. */
async function expectWorking(client: Client, era: ProtocolEra): Promise<void> {
  expect(client.protocolEra).toBe(era);
  expect(client.protocolVersion).toBe(era === "modern" ? "2026-07-28" : "2025-11-25");
  const result = await client.callTool({ name: "test_input_required_result_elicitation" });
  expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
  await client.close();
}

describe("--protocol-versions over stdio (child processes)", () => {
  it("serves both eras by default: auto detection picks modern", async () => {
    await expectWorking(await connect(stdio([]), { ...ELICITING, protocolEra: "auto" }), "modern");
  });

  it("legacy only: server/discover gets a legacy answer and auto falls back to initialize", async () => {
    const store = new Map<string, ProtocolEra>();
    const options = { ...ELICITING, protocolEra: "auto" as const, eraCache: { store, key: "s" } };
    await expectWorking(await connect(stdio(LEGACY_ONLY), options), "legacy");
    expect(store.get("s")).toBe("legacy");
  });

  it("legacy only: a modern-only client is refused", async () => {
    const client = createClient({ name: "c", version: "1" }, { protocolEra: "modern" });
    await expect(client.connect(stdio(LEGACY_ONLY))).rejects.toMatchObject({ code: -32601 });
  });

  it("modern only: initialize is refused with -32022 naming 2026-07-28", async () => {
    const client = createClient({ name: "c", version: "1" });
    await expect(client.connect(stdio(MODERN_ONLY))).rejects.toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28"] },
    });
  });

  it("modern only: auto detection speaks modern, MRTR answered by the handler", async () => {
    await expectWorking(
      await connect(stdio(MODERN_ONLY), { ...ELICITING, protocolEra: "auto" }),
      "modern",
    );
  });
});

describe("--protocol-versions over Streamable HTTP (child processes)", () => {
  const servers: Record<string, { url: URL; child: ChildProcess }> = {};
  beforeAll(async () => {
    const [both, legacy, modern] = await Promise.all([
      startHttp([]),
      startHttp(LEGACY_ONLY),
      startHttp(MODERN_ONLY),
    ]);
    Object.assign(servers, { both, legacy, modern });
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map(({ child }) => stop(child)));
  });
  const http = (name: string) =>
    new StreamableHttpClientTransport({ url: (servers[name] as { url: URL }).url });

  it("serves both eras by default: auto detection picks modern, POSTs only, no session", async () => {
    const sent: { method: string; session: string | null }[] = [];
    const transport = new StreamableHttpClientTransport({
      url: (servers.both as { url: URL }).url,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        sent.push({ method: init?.method ?? "GET", session: headers.get("mcp-session-id") });
        return fetch(input, init);
      },
    });
    const client = await connect(transport, { ...ELICITING, protocolEra: "auto" });
    const subscription = await client.listen({ toolsListChanged: true });
    await subscription.close();
    await expectWorking(client, "modern");
    // 2026-07-28: no GET stream, no session; change notifications come on a listen POST.
    expect(new Set(sent.map((request) => request.method))).toEqual(new Set(["POST"]));
    expect(sent.every((request) => request.session === null)).toBe(true);
  });

  it("legacy only: the modern POST gets a legacy answer and auto falls back to initialize", async () => {
    await expectWorking(
      await connect(http("legacy"), { ...ELICITING, protocolEra: "auto" }),
      "legacy",
    );
  });

  it("modern only: initialize is refused with -32022, auto speaks modern", async () => {
    const legacyClient = createClient({ name: "c", version: "1" });
    await expect(legacyClient.connect(http("modern"))).rejects.toMatchObject({ code: -32022 });
    await expectWorking(
      await connect(http("modern"), { ...ELICITING, protocolEra: "auto" }),
      "modern",
    );
  });
});

describe("--protocol-versions on the command line", () => {
  it("names an unknown revision on stderr and exits 2", async () => {
    const outcome = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, "--protocol-versions", "2025-11-25,2030-01-01"],
        (error, _out, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stderr }),
      );
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/--protocol-versions must list .* got 2030-01-01/);
  });
});
