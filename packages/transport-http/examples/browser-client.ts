import { createConnection } from "@patchbay/jsonrpc-core";
import { StreamableHttpClientTransport } from "../src/client.js";

/** A connection over Streamable HTTP, written as a browser or worker app would write it. */
export const connection = createConnection(
  new StreamableHttpClientTransport({ url: "https://mcp.example.com/mcp" }),
);
