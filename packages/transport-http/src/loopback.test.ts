import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { listenLoopback, portInUseMessage } from "./loopback.js";

describe("portInUseMessage", () => {
  it("names the port and address of a listen that failed with EADDRINUSE, and nothing else", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    try {
      const failure = await listenLoopback(() => {}, "127.0.0.1", port).catch((error) => error);
      expect(portInUseMessage(failure)).toBe(
        `port ${port} on 127.0.0.1 is in use; pass --port <another port> (0 picks a free one)`,
      );
      expect(portInUseMessage(new Error("other"))).toBeUndefined();
      expect(portInUseMessage(undefined)).toBeUndefined();
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
