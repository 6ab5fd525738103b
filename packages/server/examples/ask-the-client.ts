// Server-to-client requests from a tool handler, type-checked with the README.
import { createServer, MissingClientCapabilityError } from "../src/index.js";

const server = createServer({ name: "assistant", version: "1.0.0" });

server.registerTool(
  "summarize_roots",
  { description: "Summarizes the client's roots" },
  async (_args, context) => {
    try {
      const { roots } = await context.listRoots();
      const answer = await context.sample({
        messages: [
          {
            role: "user",
            content: {
              type: "text",
              text: `Summarize: ${roots.map((root) => root.uri).join(", ")}`,
            },
          },
        ],
        maxTokens: 200,
      });
      const confirmed = await context.elicit({
        message: "Keep this summary?",
        requestedSchema: { type: "object", properties: { keep: { type: "boolean" } } },
      });
      return { content: [{ type: "text", text: `${answer.model}: ${confirmed.action}` }] };
    } catch (error) {
      if (MissingClientCapabilityError.isInstance(error)) {
        return { content: [{ type: "text", text: error.message }], isError: true };
      }
      throw error;
    }
  },
);
