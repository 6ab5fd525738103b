import { expect, it } from "vitest";
import { closeSdk, connectSdk, sampleEntry, startTestProxy } from "./proxy-helpers.js";

it("labels tool metrics only with names the catalogue exposes; made-up names count as __unknown__", async () => {
  const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
  try {
    const connected = await connectSdk(proxy.url);
    for (let index = 0; index < 5; index++) {
      await connected.client
        .callTool({ name: `made-up-${index}`, arguments: {} })
        .catch((error: unknown) => error);
    }
    await connected.client.callTool({ name: "sample__add", arguments: { a: 1, b: 2 } });
    await closeSdk(connected);

    const text = await (await fetch(proxy.at("/metrics"))).text();
    const incoming = text
      .split("\n")
      .filter(
        (line) =>
          line.startsWith("patchbay_requests_total{") && line.includes('method="tools/call"'),
      )
      .filter((line) => line.includes('direction="incoming"'));
    expect(incoming.some((line) => line.includes("made-up"))).toBe(false);
    const unknown = incoming.filter((line) => line.includes('tool="__unknown__"'));
    expect(unknown.map((line) => Number(line.split(" ").at(-1)))).toEqual([5]);
    expect(incoming.some((line) => line.includes('tool="sample__add"'))).toBe(true);
  } finally {
    await proxy.stop();
  }
}, 20_000);
