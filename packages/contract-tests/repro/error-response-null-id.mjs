// @modelcontextprotocol/sdk 1.32.2: the SDK's message schema refuses an error response whose id is
// null, which JSON-RPC 2.0 (section 5) requires when the request's id could not be read (a parse
// error, -32700). Run: node repro/error-response-null-id.mjs (exit 0: reproduced).
import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

const parseError = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
const accepted = JSONRPCMessageSchema.safeParse(parseError).success;
console.log(`JSONRPCMessageSchema accepts ${JSON.stringify(parseError)}: ${accepted}`);

// Over stdio: the line is reported to onerror and never reaches onmessage.
const stdin = new PassThrough();
const transport = new StdioServerTransport(stdin, new PassThrough());
const received = [];
const errors = [];
transport.onmessage = (message) => received.push(message);
transport.onerror = (error) => errors.push(error.name);
await transport.start();
stdin.write(`${JSON.stringify(parseError)}\n`);
await new Promise((resolve) => setImmediate(resolve));
console.log(`over stdio: delivered ${received.length}, errors ${JSON.stringify(errors)}`);
await transport.close();

const reproduced = !accepted && received.length === 0;
console.log(reproduced ? "reproduced" : "not reproduced (fixed?)");
process.exit(reproduced ? 0 : 1);
