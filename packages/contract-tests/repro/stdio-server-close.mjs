// @modelcontextprotocol/sdk 1.32.2: StdioServerTransport never reports that its stdin ended, and its
// close() leaves stdout open. Run: node repro/stdio-server-close.mjs (exit 0: reproduced).
import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

// 1. The client goes away: the server's stdin ends.
const stdin = new PassThrough();
const served = new StdioServerTransport(stdin, new PassThrough());
let closeReported = false;
served.onclose = () => {
  closeReported = true;
};
await served.start();
const ended = new Promise((resolve) => stdin.once("end", resolve));
stdin.end();
await ended;
await new Promise((resolve) => setImmediate(resolve));
console.log(`stdin ended; onclose called: ${closeReported}`);

// 2. The server closes: its stdout should end, so that the client sees the end of the stream.
const stdout = new PassThrough();
const closing = new StdioServerTransport(new PassThrough(), stdout);
await closing.start();
await closing.close();
console.log(`after close(): stdout ended: ${stdout.writableEnded}`);

const reproduced = !closeReported && !stdout.writableEnded;
console.log(reproduced ? "reproduced" : "not reproduced (fixed?)");
process.exit(reproduced ? 0 : 1);
