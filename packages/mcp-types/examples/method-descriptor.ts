// The README example, compiled by `pnpm typecheck` (the import path is the only difference).
import { createConnection, createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { toShallowDescriptor, v2025_11_25 } from "../src/index.js";

const { isCreateTaskResult, methods } = v2025_11_25;

/** A server and a client on jsonrpc-core, typed and validated by the 2025-11-25 descriptors. */
export async function main(): Promise<string> {
  const [clientTransport, serverTransport] = createMemoryTransportPair();
  const server = createConnection(serverTransport);
  const client = createConnection(clientTransport);

  // Params arrive parsed (a bad call is answered -32602 with the issue paths).
  server.handle(methods["tools/call"], (params) => ({
    content: [{ type: "text" as const, text: `created "${String(params.arguments?.title)}"` }],
  }));
  await Promise.all([server.start(), client.start()]);

  // The result is checked against its schema and typed: in 2025-11-25 a tools/call may also be
  // answered with a CreateTaskResult (when the call asked for a task), so narrow first.
  const result = await client.request(methods["tools/call"], {
    name: "github__create_issue",
    arguments: { title: "Bug" },
  });

  // A gateway that only forwards can skip deep validation with the shallow variant.
  const forwarded = await client.request(toShallowDescriptor(methods["tools/call"]), {
    name: "github__create_issue",
    arguments: { title: "Again" },
  });

  await Promise.all([client.close(), server.close()]);
  return [result, forwarded]
    .map((answer) => {
      if (isCreateTaskResult(answer)) return `task ${answer.task.taskId}`;
      const block = answer.content[0];
      return block?.type === "text" ? block.text : "";
    })
    .join("; ");
}
