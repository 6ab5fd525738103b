import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { SseClientTransport } from "@patchbay/transport-sse";
import { expect, it } from "vitest";
import { startEchoUpstream } from "./oauth-upstream.js";
import { closeSdk, connectSdk, postJson, sampleEntry, startTestProxy } from "./proxy-helpers.js";

const CLIENT_TOKEN = "client-token-0123456789abcdef";

it("never passes the client's Authorization to a backend, which gets its own credentials", async () => {
  const backend = await startEchoUpstream();
  const proxy = await startTestProxy({
    mcpServers: {
      remote: {
        url: backend.url,
        transport: "http",
        headers: { Authorization: "Bearer backend-own-secret" },
      },
    },
    auth: { tokens: [{ name: "client", token: CLIENT_TOKEN }] },
  });
  const connected = await connectSdk(proxy.url, { token: CLIENT_TOKEN });
  await connected.client.callTool({ name: "remote__echo", arguments: { message: "x" } });
  await closeSdk(connected);
  expect(backend.authorizations.length).toBeGreaterThan(0);
  expect(new Set(backend.authorizations)).toEqual(new Set(["Bearer backend-own-secret"]));
  await proxy.stop();
  await backend.close();
});

it("applies tokens, profiles and session ownership to the legacy SSE endpoints", async () => {
  const one = "sse-one-0123456789abcdef";
  const two = "sse-two-0123456789abcdef";
  const proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry(), other: sampleEntry() },
    profiles: { team: { servers: ["sample"] } },
    auth: {
      tokens: [
        { name: "one", token: one, profiles: ["team"] },
        { name: "two", token: two, profiles: ["team"] },
      ],
    },
  });
  expect(
    (await fetch(proxy.at("/sse"), { headers: { authorization: `Bearer ${one}` } })).status,
  ).toBe(403);
  expect((await fetch(proxy.at("/sse/team"))).status).toBe(401);

  const transport = new SseClientTransport({
    url: proxy.at("/sse/team"),
    headers: { authorization: `Bearer ${one}` },
  });
  const client = new Client({ name: "sse-test", version: "1.0.0" });
  await client.connect(toSdkTransport(transport));
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toContain("sample__echo");
  expect(names.filter((name) => name.startsWith("other__"))).toEqual([]);
  await client.close();

  // The endpoint event names the session's POST URL; another token posting there gets 404.
  const controller = new AbortController();
  const stream = await fetch(proxy.at("/sse/team"), {
    headers: { authorization: `Bearer ${one}`, accept: "text/event-stream" },
    signal: controller.signal,
  });
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!/event: endpoint\ndata: (\S+)/.test(text)) {
    const { value } = await reader.read();
    text += new TextDecoder().decode(value);
  }
  const endpoint = new URL(
    (/event: endpoint\ndata: (\S+)/.exec(text) as RegExpExecArray)[1] as string,
    proxy.url,
  );
  expect(endpoint.pathname).toBe("/messages/team");
  const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
  const foreign = await postJson(endpoint, ping, { authorization: `Bearer ${two}` });
  expect(foreign.status).toBe(404);
  const own = await postJson(endpoint, ping, { authorization: `Bearer ${one}` });
  expect(own.status).toBe(202);
  controller.abort();
  await reader.cancel().catch(() => {});
  await proxy.stop();
});
