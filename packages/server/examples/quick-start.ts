// The README's example, type-checked by `pnpm typecheck` (examples/ is in tsconfig.json).
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { z } from "zod";
import { createServer } from "../src/index.js";

const server = createServer({
  name: "weather",
  version: "1.0.0",
  instructions: "Ask about the weather.",
});

server.registerTool(
  "get_forecast",
  {
    title: "Forecast",
    description: "The forecast for a city",
    inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(7).default(1) }),
    outputSchema: z.object({ city: z.string(), summary: z.string() }),
    annotations: { readOnlyHint: true },
  },
  async ({ city, days }, context) => {
    await context.progress(0, days);
    await context.log("info", `Forecasting ${city}`);
    return { structuredContent: { city, summary: `Sunny for ${days} day(s)` } };
  },
);

server.registerResource("readme", "docs://readme", { mimeType: "text/markdown" }, (uri) => ({
  contents: [{ uri, mimeType: "text/markdown", text: "# Weather server" }],
}));

server.registerResourceTemplate(
  "city",
  "weather://cities/{name}",
  {
    complete: {
      name: (value) => ["Paris", "Perth", "Lima"].filter((city) => city.startsWith(value)),
    },
  },
  (uri, { name }) => ({ contents: [{ uri, text: `Weather in ${name}` }] }),
);

server.registerPrompt(
  "plan_trip",
  { arguments: [{ name: "city", required: true }] },
  ({ city }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Plan a trip to ${city}` } }],
  }),
);

// Any @patchbay/jsonrpc-core Transport works: stdio, Streamable HTTP, SSE, or the memory pair.
const [, serverSide] = createMemoryTransportPair();
const session = await server.connect(serverSide);
session.onClose(() => console.error("client left"));
