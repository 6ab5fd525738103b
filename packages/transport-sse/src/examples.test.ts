import { expect, it } from "vitest";
import { connect, startBothEras } from "../examples/both-eras.js";

it("the README example serves both eras and the fallback client reaches each", async () => {
  const server = await startBothEras();
  try {
    expect(await connect(`${server.origin}/mcp`)).toEqual({
      kind: "streamable-http",
      echoed: { via: `${server.origin}/mcp` },
    });
    expect(await connect(`${server.origin}/sse`)).toEqual({
      kind: "sse",
      echoed: { via: `${server.origin}/sse` },
    });
  } finally {
    await server.close();
  }
});
