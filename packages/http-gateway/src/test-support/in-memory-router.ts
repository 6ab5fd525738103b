import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { createServer } from "@patchbay/server";

/** A tool call the test finishes by hand, and whether the backend saw it cancelled. */
export interface HeldCall {
  readonly started: Promise<void>;
  readonly cancelled: Promise<void>;
  finish(text: string): void;
}

/** A router in front of one in-memory backend whose `hold` tool waits for the test. */
export async function createInMemoryRouter(): Promise<{ router: Router; nextCall(): HeldCall }> {
  const queue: HeldCall[] = [];
  const pending: ((call: HeldCall) => void)[] = [];
  const backend = createServer({ name: "memory", version: "1.0.0" });
  backend.registerTool("hold", {}, async (_args, context) => {
    let finish!: (text: string) => void;
    let markCancelled!: () => void;
    const cancelled = new Promise<void>((resolve) => {
      markCancelled = resolve;
    });
    context.signal.addEventListener("abort", () => markCancelled());
    const done = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const call: HeldCall = { started: Promise.resolve(), cancelled, finish };
    const waiter = pending.shift();
    if (waiter) waiter(call);
    else queue.push(call);
    return { content: [{ type: "text", text: await done }] };
  });
  backend.registerTool("echo", {}, async (args) => ({
    content: [{ type: "text", text: JSON.stringify(args) }],
  }));
  // The only backend with resources: any URI is its own, and can be subscribed to.
  backend.registerResource("note", "memo://note", {}, () => ({
    contents: [{ uri: "memo://note", text: "a note" }],
  }));
  backend.registerTool("report", {}, async (_args, context) => {
    await context.progress(1, 2, "half way");
    return { content: [{ type: "text", text: "reported" }] };
  });
  const router = createRouter({
    config: parseGatewayConfig({ mcpServers: { memory: { command: "in-memory", namespace: "" } } })
      .config,
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await backend.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  return {
    router,
    nextCall: () => {
      const queued = queue.shift();
      if (queued) return queued;
      let resolveCall!: (call: HeldCall) => void;
      const next = new Promise<HeldCall>((resolve) => {
        resolveCall = resolve;
      });
      pending.push(resolveCall);
      // A proxy object whose parts wait for the call to arrive.
      return {
        started: next.then(() => undefined),
        cancelled: next.then((call) => call.cancelled),
        finish: (text) => void next.then((call) => call.finish(text)),
      };
    },
  };
}
