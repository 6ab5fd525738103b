import { describe, expect, it } from "vitest";
import { parseCliArguments } from "./cli-arguments.js";

describe("parseCliArguments", () => {
  it("defaults to stdio on 127.0.0.1:3000", () => {
    expect(parseCliArguments([])).toEqual({
      transport: "stdio",
      host: "127.0.0.1",
      port: 3000,
      help: false,
      version: false,
    });
  });

  it("reads --transport, --host and --port in both spellings", () => {
    expect(parseCliArguments(["--transport", "http", "--host=0.0.0.0", "--port", "0"])).toEqual({
      transport: "http",
      host: "0.0.0.0",
      port: 0,
      help: false,
      version: false,
    });
  });

  it("takes the port from PORT when --port is absent", () => {
    expect(parseCliArguments(["--transport=sse"], { PORT: "8080" }).port).toBe(8080);
  });

  it("reads --step-delay-ms, and leaves it out when absent", () => {
    expect(parseCliArguments(["--step-delay-ms", "0"]).stepDelayMs).toBe(0);
    expect(parseCliArguments(["--step-delay-ms=120"]).stepDelayMs).toBe(120);
    expect(parseCliArguments([])).not.toHaveProperty("stepDelayMs");
  });

  it("reads --task-second-ms, and leaves it out when absent", () => {
    expect(parseCliArguments(["--task-second-ms", "50"]).taskSecondMs).toBe(50);
    expect(parseCliArguments([])).not.toHaveProperty("taskSecondMs");
    expect(() => parseCliArguments(["--task-second-ms", "x"])).toThrow(/--task-second-ms must be/);
  });

  it("reads --protocol-versions as a comma-separated list, and leaves it out when absent", () => {
    expect(parseCliArguments(["--protocol-versions", "2025-11-25"]).protocolVersions).toEqual([
      "2025-11-25",
    ]);
    expect(
      parseCliArguments(["--protocol-versions=2026-07-28, 2025-06-18"]).protocolVersions,
    ).toEqual(["2026-07-28", "2025-06-18"]);
    expect(parseCliArguments([])).not.toHaveProperty("protocolVersions");
  });

  it.each([
    [
      ["--protocol-versions", "2025-11-25,1999-01-01"],
      /--protocol-versions must list .* got 1999-01-01/,
    ],
    [["--protocol-versions", ","], /--protocol-versions must list .* got none/],
    [["--transport", "websocket"], /--transport must be/],
    [["--port", "x"], /--port must be/],
    [["--port", "70000"], /--port must be/],
    [["--verbose", "1"], /Unknown option '--verbose'/],
    [["stdio"], /Unexpected argument 'stdio'/],
    [["--host"], /Option '--host <value>' argument missing/],
    [["--step-delay-ms", "-1"], /--step-delay-ms/],
    [["--step-delay-ms", "60001"], /--step-delay-ms must be/],
  ])("rejects %j", (argv, message) => {
    expect(() => parseCliArguments(argv)).toThrow(message);
  });

  it.each([["-h"], ["--help"]])("reads %s as a request for help", (flag) => {
    expect(parseCliArguments([flag]).help).toBe(true);
  });

  it("reads --version", () => {
    expect(parseCliArguments(["--version"]).version).toBe(true);
  });
});
