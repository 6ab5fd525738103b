import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type GatewayProcess, sampleBackend, startGateway } from "./support/launch.js";
import { survivors } from "./support/processes.js";

const MB = 1_000_000;
const gateways: GatewayProcess[] = [];

async function gateway(config: unknown) {
  const started = await startGateway(config);
  gateways.push(started);
  return started;
}

afterEach(async () => {
  for (const started of gateways.splice(0)) expect(await started.stop()).toEqual([]);
});

afterAll(() => {
  expect(survivors()).toEqual([]);
});

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content).toHaveLength(1);
  return content[0]?.text ?? "";
}

const pattern = (bytes: number) => "0123456789abcdef".repeat(Math.ceil(bytes / 16)).slice(0, bytes);

describe("large tool results through the stdio gateway", () => {
  it.each([1, 10, 50])("carries a %i MB result whole with the default limits", async (size) => {
    const { peer } = await gateway({ mcpServers: { sample: sampleBackend() } });
    const response = await peer.request("tools/call", {
      name: "sample__large_result",
      arguments: { bytes: size * MB },
    });
    expect(response.error).toBeUndefined();
    const text = textOf(response.result);
    expect(text.length).toBe(size * MB);
    expect(text === pattern(size * MB)).toBe(true);
    // The gateway still serves after it.
    const echo = await peer.request("tools/call", {
      name: "sample__echo",
      arguments: { message: "after" },
    });
    expect(textOf(echo.result)).toBe("after");
  });

  it("fails only the call whose result is over maxMessageBytes, at once, naming the limit", async () => {
    const limit = 1024 * 1024;
    const { peer } = await gateway({
      mcpServers: { sample: sampleBackend({ maxMessageBytes: limit, timeoutMs: 600_000 }) },
    });
    const call = (bytes: number) =>
      peer.request("tools/call", { name: "sample__large_result", arguments: { bytes } });
    const [small, large, after] = await Promise.all([call(1000), call(2 * MB), call(2000)]);
    expect(textOf(small.result)).toHaveLength(1000);
    expect(textOf(after.result)).toHaveLength(2000);
    expect(large.error).toMatchObject({
      code: -32007,
      data: { backend: "sample", limitBytes: limit },
    });
    expect(large.error?.message).toMatch(
      /^The response of backend "sample" of 2000\d{3} bytes is over its limit of 1048576 bytes \(maxMessageBytes\)$/,
    );
    // The backend was not restarted or dropped: it keeps serving.
    const status = await peer.request("tools/call", { name: "gateway_status", arguments: {} });
    expect(status.result).toMatchObject({
      structuredContent: { backends: { sample: { status: "running" } } },
    });
  });

  it("fails a result over the default 64 MiB limit at once with -32007, and serves on", async () => {
    const { peer } = await gateway({
      mcpServers: { sample: sampleBackend({ timeoutMs: 600_000 }) },
    });
    const response = await peer.request("tools/call", {
      name: "sample__large_result",
      arguments: { bytes: 70 * MB },
    });
    expect(response.error).toMatchObject({
      code: -32007,
      data: { backend: "sample", limitBytes: 64 * 1024 * 1024 },
    });
    expect(response.error?.message).toMatch(
      /over its limit of 67108864 bytes \(maxMessageBytes\)$/,
    );
    const echo = await peer.request("tools/call", {
      name: "sample__echo",
      arguments: { message: "after" },
    });
    expect(textOf(echo.result)).toBe("after");
  });
});
