// The README example, compiled by `pnpm typecheck` (the import path is the only difference).
import {
  createConnection,
  createMemoryTransportPair,
  MethodNotFoundError,
  type RequestDescriptor,
  TimeoutError,
} from "../src/index.js";

// Any object with `parse` works as a schema (a zod schema does too).
const add: RequestDescriptor<{ a: number; b: number }, { sum: number }> = {
  method: "math/add",
  params: {
    parse(value) {
      const { a, b } = value as { a: unknown; b: unknown };
      if (typeof a !== "number" || typeof b !== "number")
        throw new Error("a and b must be numbers");
      return { a, b };
    },
  },
};

export async function main(): Promise<void> {
  const [clientTransport, serverTransport] = createMemoryTransportPair();
  const server = createConnection(serverTransport);
  const client = createConnection(clientTransport, { defaultTimeoutMs: 5_000 });

  server.handle(add, ({ a, b }) => ({ sum: a + b }));
  await Promise.all([server.start(), client.start()]);

  const { sum } = await client.request(add, { a: 2, b: 3 });
  console.log(sum); // 5

  try {
    await client.request("no/such/method", {}, { timeoutMs: 1_000 });
  } catch (error) {
    if (MethodNotFoundError.isInstance(error)) console.log(error.code); // -32601
    if (TimeoutError.isInstance(error)) console.log("no answer in time");
  }

  await client.close(); // the server side sees a "remote" close
}
