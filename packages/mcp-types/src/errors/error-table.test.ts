import { ErrorCode as JsonRpcErrorCode } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import {
  IMPLEMENTATION_DEFINED_ERROR_CODES,
  isImplementationDefinedErrorCode,
  isSpecErrorCode,
  MCP_ERROR_CODES,
} from "./error-codes.js";
import { ERROR_TABLE, PatchbayErrorCode } from "./error-table.js";

/** JSON-RPC 2.0 section 5.1 reserves -32768..-32000 for itself and for implementations. */
const JSONRPC_RESERVED = { min: -32768, max: -32000 } as const;

describe("the error table", () => {
  it("gives no two names the same code, and no name two codes", () => {
    const byCode = new Map<number, string>();
    const byName = new Map<string, number>();
    for (const entry of ERROR_TABLE) {
      expect(byCode.get(entry.code), `${entry.name} reuses ${entry.code}`).toBeUndefined();
      expect(byName.get(entry.name), `${entry.name} is listed twice`).toBeUndefined();
      byCode.set(entry.code, entry.name);
      byName.set(entry.name, entry.code);
    }
  });

  it("uses JSON-RPC's codes with JSON-RPC's meaning only", () => {
    const rows = ERROR_TABLE.filter((entry) => entry.origin === "json-rpc");
    expect(Object.fromEntries(rows.map((entry) => [entry.name, entry.code]))).toEqual(
      JsonRpcErrorCode,
    );
  });

  it("uses the MCP specification's codes with the specification's meaning only", () => {
    const rows = ERROR_TABLE.filter((entry) => entry.origin === "mcp");
    for (const entry of rows) expect(isSpecErrorCode(entry.code), entry.name).toBe(true);
    expect(Object.fromEntries(rows.map((entry) => [entry.name, entry.code]))).toEqual(
      MCP_ERROR_CODES,
    );
  });

  it("keeps Patchbay's codes in -32000..-32019, away from every range the spec or JSON-RPC keeps", () => {
    const rows = ERROR_TABLE.filter((entry) => entry.origin === "patchbay");
    for (const entry of rows) {
      const label = `${entry.name} (${entry.code})`;
      expect(isImplementationDefinedErrorCode(entry.code), label).toBe(true);
      expect(isSpecErrorCode(entry.code), label).toBe(false);
      expect(entry.code, label).toBeGreaterThanOrEqual(IMPLEMENTATION_DEFINED_ERROR_CODES.min);
      expect(entry.code, label).toBeLessThanOrEqual(JSONRPC_RESERVED.max);
      expect(Object.values(JsonRpcErrorCode), label).not.toContain(entry.code);
    }
  });

  it("lists every code of PatchbayErrorCode under its own name, and nothing else of Patchbay's", () => {
    const rows = ERROR_TABLE.filter((entry) => entry.origin === "patchbay");
    expect(Object.fromEntries(rows.map((entry) => [entry.name, entry.code]))).toEqual(
      PatchbayErrorCode,
    );
  });

  it("says in one line what each code means and who sends it", () => {
    for (const entry of ERROR_TABLE) {
      expect(entry.meaning.length, entry.name).toBeGreaterThan(0);
      expect(entry.meaning, entry.name).not.toContain("\n");
      expect(entry.when.length, entry.name).toBeGreaterThan(0);
    }
  });

  it("moves the codes that used to collide or sit in the spec's range", () => {
    expect(PatchbayErrorCode.ServerBusy).toBe(-32010);
    expect(PatchbayErrorCode.TooManyHeldCalls).toBe(-32011);
    expect(PatchbayErrorCode).toMatchObject({
      ResponseTooLarge: -32012,
      SessionNotFound: -32013,
      HttpRequestRefused: -32014,
      RateLimited: -32015,
      SharedStoreUnavailable: -32016,
      ReplicaLost: -32017,
    });
  });
});
