import { createServer } from "node:http";
import { type Client, createClient, createOAuthClient } from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";

/**
 * Resolves with the URL the browser is sent back to at `http://127.0.0.1:<port>/callback`,
 * answering the page and closing the one-shot server.
 */
function waitForRedirect(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = createServer((request, response) => {
      response
        .writeHead(200, { "content-type": "text/plain" })
        .end("Signed in; you can close this tab.");
      server.close();
      resolve(new URL(request.url ?? "/", `http://127.0.0.1:${port}`).href);
    });
    server.once("error", reject);
    server.listen(port, "127.0.0.1");
  });
}

/**
 * Connects to an OAuth-protected MCP server from a command-line tool: on the server's 401 the
 * client discovers its authorization server, registers itself, and `openBrowser` shows the person
 * the sign-in page; the browser comes back to a loopback callback. Tokens stay in memory (pass a
 * `tokenStore` to keep them) and are refreshed on their own.
 */
export async function connectWithOAuth(
  serverUrl: string,
  openBrowser: (url: URL) => void,
  options: { readonly callbackPort: number; readonly allowInsecureHttp?: boolean },
): Promise<Client> {
  const oauth = createOAuthClient({
    serverUrl,
    redirectUrl: `http://127.0.0.1:${options.callbackPort}/callback`,
    authorize: async (authorizationUrl) => {
      const redirected = waitForRedirect(options.callbackPort);
      openBrowser(authorizationUrl);
      return redirected;
    },
    clientName: "my-cli",
    allowInsecureHttp: options.allowInsecureHttp ?? false, // only for a local http server
  });
  const client = createClient({ name: "my-cli", version: "1.0.0" });
  await client.connect(new StreamableHttpClientTransport({ url: serverUrl, fetch: oauth.fetch }));
  return client;
}
