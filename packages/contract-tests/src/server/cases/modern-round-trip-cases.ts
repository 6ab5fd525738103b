import { expect } from "vitest";
import { nextEvent, rejectionOf, textOf } from "../contract-helpers.js";
import type { ServerContractContext } from "../server-contract-context.js";
import { modernApplies, modernMeta } from "./modern-cases.js";

/** MCP 2026-07-28: multi round-trip requests and `subscriptions/listen`. */
export function defineModernRoundTripCases(context: ServerContractContext): void {
  const modern = modernApplies(context);
  const connectModern = (options: Parameters<ServerContractContext["connectClient"]>[0] = {}) =>
    context.connectClient({ ...options, protocolEra: "modern" });

  context.test(
    "elicitation is an input_required result with sealed state; a tampered state is -32602",
    modern,
    async () => {
      const raw = await context.connectRaw();
      const requestsFromServer: string[] = [];
      raw.setFallbackRequestHandler((_params, request) => {
        requestsFromServer.push(request.method);
        return {};
      });
      const params = {
        name: "test_elicitation",
        arguments: { message: "Continue?" },
        _meta: modernMeta({ elicitation: {} }),
      };
      const first = (await raw.request("tools/call", params)) as Record<string, unknown>;
      expect(first.resultType).toBe("input_required");
      const requests = Object.values(first.inputRequests as Record<string, { method: string }>);
      expect(requests.map((request) => request.method)).toEqual(["elicitation/create"]);
      expect(typeof first.requestState).toBe("string");
      const state = first.requestState as string;
      const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
      const retry = { ...params, requestState: tampered, inputResponses: {} };
      expect((await rejectionOf(raw.request("tools/call", retry))).code).toBe(-32602);
      // 2026-07-28: the server asks through results; it never sends a request.
      expect(requestsFromServer).toEqual([]);
    },
  );

  context.test(
    "MRTR: the client's elicitation handler answers and the call completes",
    modern,
    async () => {
      const client = await connectModern({
        elicitation: () => ({ action: "accept", content: { username: "ada", email: "a@b.c" } }),
      });
      const result = await client.callTool({
        name: "test_elicitation",
        arguments: { message: "Continue?" },
      });
      expect(textOf(result)).toBe(
        'User response: action=accept, content={"username":"ada","email":"a@b.c"}',
      );
    },
  );

  context.test(
    "MRTR: sampling and roots are answered by the client's handlers",
    modern,
    async () => {
      const client = await connectModern({
        sampling: () => ({
          role: "assistant",
          model: "contract-model",
          content: { type: "text", text: "four" },
        }),
        roots: () => ({ roots: [{ uri: "file:///project", name: "project" }] }),
      });
      const sampled = await client.callTool({
        name: "test_sampling",
        arguments: { prompt: "2+2?" },
      });
      expect(textOf(sampled)).toBe("LLM response: four");
      expect(textOf(await client.callTool({ name: "list_roots" }))).toContain("file:///project");
    },
  );

  context.test(
    "subscriptions/listen acknowledges, then streams tools/list_changed",
    modern,
    async () => {
      const client = await connectModern();
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.acknowledged).toMatchObject({ toolsListChanged: true });
      const changed = nextEvent<Record<string, unknown>>(
        (listener) => client.on("notifications/tools/list_changed", listener),
        "client: no tools/list_changed on the listen stream after a tool was toggled",
        context.waitTimeoutMs,
      );
      await client.callTool({ name: "toggle_extra_tool" });
      expect(await changed).toMatchObject({
        _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
      });
      await client.callTool({ name: "toggle_extra_tool" });
      await subscription.close();
    },
  );

  context.test("subscribeResource in the modern era gets resources/updated", modern, async () => {
    const client = await connectModern();
    await client.subscribeResource("test://watched-resource");
    const updated = nextEvent<{ uri: string }>(
      (listener) => client.on("notifications/resources/updated", listener),
      "client: no resources/updated on the listen stream after the resource changed",
      context.waitTimeoutMs,
    );
    await client.callTool({ name: "update_watched_resource" });
    expect((await updated).uri).toBe("test://watched-resource");
    await client.unsubscribeResource("test://watched-resource");
  });
}
