import { expect } from "vitest";
import { rejectionOf, textOf } from "../contract-helpers.js";
import type { Applicability, ServerContractContext } from "../server-contract-context.js";

/** The modern revision the cases speak. */
export const MODERN = "2026-07-28";

/** The per-request `_meta` of a modern request from the suite. */
export function modernMeta(capabilities: Record<string, unknown> = {}, version = MODERN) {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "patchbay-server-contract", version: "1.0.0" },
  };
}

/** Opt-in: the server (and the transport in front of it) speaks the modern era. */
export function modernApplies(context: ServerContractContext): Applicability {
  const value = context.capabilities.modernEra;
  if (value === true) return { applies: true, reason: "" };
  if (value === undefined || value === false) {
    return { applies: false, reason: "capabilities.modernEra is not declared true" };
  }
  return { applies: false, reason: value.unsupported };
}

/** MCP 2026-07-28: `server/discover`, per-request `_meta` checks, `resultType`. */
export function defineModernCases(context: ServerContractContext): void {
  const modern = modernApplies(context);
  const connectModern = (options: Parameters<ServerContractContext["connectClient"]>[0] = {}) =>
    context.connectClient({ ...options, protocolEra: "modern" });

  context.test(
    "server/discover names 2026-07-28, the capabilities and the server",
    modern,
    async () => {
      const raw = await context.connectRaw();
      const result = (await raw.request("server/discover", { _meta: modernMeta() })) as Record<
        string,
        unknown
      >;
      expect(result.supportedVersions).toContain(MODERN);
      expect(result).toMatchObject({ resultType: "complete", capabilities: { tools: {} } });
      expect(result._meta).toMatchObject({
        "io.modelcontextprotocol/serverInfo": { name: expect.any(String) },
      });
    },
  );

  context.test(
    "an unsupported revision in _meta is -32022 naming the supported ones",
    modern,
    async () => {
      const raw = await context.connectRaw();
      const error = await rejectionOf(
        raw.request("tools/list", { _meta: modernMeta({}, "2099-01-01") }),
      );
      expect(error.code).toBe(-32022);
      expect(error.data).toMatchObject({ requested: "2099-01-01" });
      expect((error.data as { supported: unknown[] }).supported).toContain(MODERN);
    },
  );

  context.test(
    "a modern request without clientCapabilities in _meta is -32602",
    modern,
    async () => {
      const raw = await context.connectRaw();
      const meta = { "io.modelcontextprotocol/protocolVersion": MODERN };
      expect((await rejectionOf(raw.request("tools/list", { _meta: meta }))).code).toBe(-32602);
    },
  );

  context.test("a modern client needs no initialize; results say resultType", modern, async () => {
    const client = await connectModern();
    expect(client.protocolEra).toBe("modern");
    const page = await client.listTools();
    expect(page).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number) });
    const result = await client.callTool({ name: "test_simple_text" });
    expect(result.resultType).toBe("complete");
    expect(textOf(result)).toBe("This is a simple text response for testing.");
  });
}
