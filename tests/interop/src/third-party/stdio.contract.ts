import { PassThrough } from "node:stream";
import { describeTransportContract } from "@patchbay/contract-tests";
import { createStdioServerTransport as stdio } from "@patchbay/transport-stdio";

describeTransportContract({
  name: "stdio over two pipes",
  createPair() {
    const [up, down] = [new PassThrough(), new PassThrough()];
    return {
      client: stdio({ input: down, output: up }),
      server: stdio({ input: up, output: down }),
      injectText: (side, text) => void (side === "client" ? down : up).write(text),
    };
  },
});
