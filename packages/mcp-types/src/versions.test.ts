import { describe, expect, it } from "vitest";
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  getProtocolEra,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  isProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./versions.js";

describe("protocol versions", () => {
  it("lists the five revisions oldest first, legacy then modern", () => {
    expect(PROTOCOL_VERSIONS).toEqual([...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]);
    expect([...PROTOCOL_VERSIONS].sort()).toEqual([...PROTOCOL_VERSIONS]);
  });

  it("names 2026-07-28 as the latest and 2025-11-25 as the latest legacy revision", () => {
    expect(LATEST_PROTOCOL_VERSION).toBe("2026-07-28");
    expect(LATEST_LEGACY_PROTOCOL_VERSION).toBe("2025-11-25");
    expect(DEFAULT_NEGOTIATED_PROTOCOL_VERSION).toBe("2025-03-26");
  });

  it("classifies revisions by era", () => {
    expect(getProtocolEra("2024-11-05")).toBe("legacy");
    expect(getProtocolEra("2025-11-25")).toBe("legacy");
    expect(getProtocolEra("2026-07-28")).toBe("modern");
    expect(isLegacyProtocolVersion("2026-07-28")).toBe(false);
    expect(isModernProtocolVersion("2026-07-28")).toBe(true);
  });

  it("does not know 2024-10-07, draft or non-strings", () => {
    expect(isProtocolVersion("2024-10-07")).toBe(false);
    expect(isProtocolVersion("draft")).toBe(false);
    expect(isProtocolVersion(20241105)).toBe(false);
  });
});

describe("SUPPORTED_PROTOCOL_VERSIONS", () => {
  it("is the legacy revisions, newest first (written out, so a bundler can drop it)", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual([...LEGACY_PROTOCOL_VERSIONS].reverse());
  });
});
