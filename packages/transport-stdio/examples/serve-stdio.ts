// README example: the server side, on this process's own stdin and stdout.
import { createConnection } from "@patchbay/jsonrpc-core";
import { createStdioServerTransport } from "@patchbay/transport-stdio";

const transport = createStdioServerTransport();
const connection = createConnection(transport);
connection.handle("ping", () => ({}));
// stdout carries protocol messages only: log to stderr.
connection.onError((error) => console.error("protocol problem:", error.message));
// End-of-file on stdin closes the transport; let the process exit then.
connection.onClose(() => console.error("client went away"));
await connection.start();
