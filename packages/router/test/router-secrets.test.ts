// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { type Client, createClient } from "@patchbay/client";
import {
  createMemoryTransportPair,
  isBatch,
  isJSONRPCRequest,
  JSONRPCError,
  type Transport,
  TransportError,
} from "@patchbay/jsonrpc-core";
import { createServer, type Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { parseGatewayConfig } from "../src/config/parse-gateway-config.js";
import { createRouter, type Router } from "../src/router/create-router.js";

// Each secret reaches the gateway by another route; none may come back out.
const SECRETS = {
  header: "arg-secret-aaaa1111",
  password: "url-pass-bbbb2222",
  query: "query-secret-cccc3333",
  expanded: "env-secret-dddd4444",
  env: "plain-env-eeee5555",
};

const file = {
  mcpServers: {
    gh: {
      command: "gh-mcp",
      args: ["--header", `Authorization: Bearer ${SECRETS.header}`],
      env: { GITHUB_TOKEN: "${GH_TOKEN}", OTHER: SECRETS.env },
    },
    remote: {
      url: `https://alice:${SECRETS.password}@api.example.com/mcp?api_key=${SECRETS.query}`,
      restart: false,
    },
  },
};

function expectNoSecret(value: unknown): void {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

// The backend's client side, failing the way a real HTTP transport does: naming the URL it used.
function failingOnExplode(transport: Transport, url: string): Transport {
  return {
    start: () => transport.start(),
    close: () => transport.close(),
    async send(frame) {
      const message = isBatch(frame) ? undefined : frame;
      const uri =
        message !== undefined && isJSONRPCRequest(message)
          ? (message.params as { uri?: string } | undefined)?.uri
          : undefined;
      if (uri === "file:///explode") {
        throw new TransportError(
          `POST ${url} failed: 401\n    at fetch (/srv/node_modules/x.js:1)`,
        );
      }
      await transport.send(frame);
    },
    onFrame: (listener) => transport.onFrame(listener),
    onError: (listener) => transport.onError(listener),
    onClose: (listener) => transport.onClose(listener),
  };
}

function defineGh(server: Server): void {
  server.registerResource("a", "file:///a", {}, async () => ({
    contents: [{ uri: "file:///a", text: "A" }],
  }));
  server.registerResourceTemplate("any", "file:///{name}", {}, async () => {
    throw new JSONRPCError(-32603, `token ${SECRETS.expanded} was refused (${SECRETS.env})`, {
      stack: "Error\n    at handler (/srv/app/secret-path.js:10)",
      reason: `upstream said Bearer ${SECRETS.header}`,
    });
  });
}

let router: Router | undefined;
let client: Client | undefined;
const servers: Server[] = [];
afterEach(async () => {
  await client?.close();
  await router?.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  client = undefined;
  router = undefined;
});

async function start(): Promise<Client> {
  const { config } = parseGatewayConfig(file, {
    environment: { GH_TOKEN: SECRETS.expanded },
  });
  router = createRouter({
    config,
    async connect(backend) {
      if (backend.transport !== "stdio") {
        throw new TransportError(`connect ECONNREFUSED ${backend.url}`);
      }
      const server = createServer({ name: "gh", version: "1.0.0" });
      defineGh(server);
      servers.push(server);
      const [clientSide, serverSide] = createMemoryTransportPair();
      await server.connect(serverSide);
      return failingOnExplode(clientSide, file.mcpServers.remote.url);
    },
  });
  await router.start();
  const [clientSide, gatewaySide] = createMemoryTransportPair();
  await router.serve(gatewaySide);
  client = createClient({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<JSONRPCError> {
  try {
    await promise;
  } catch (error) {
    return error as JSONRPCError;
  }
  throw new Error("expected a rejection");
}

describe("router: secrets never leave the gateway", () => {
  it("masks URL credentials in gateway_status, including the last_error built from the URL", async () => {
    const connected = await start();
    const status = await connected.callTool({ name: "gateway_status" });
    const backends = (status.structuredContent as { backends: Record<string, unknown> }).backends;
    expect(String((backends.remote as { last_error: string }).last_error)).toContain(
      "ECONNREFUSED https://",
    );
    expectNoSecret(status);
  });

  it("masks every secret in get_events", async () => {
    const connected = await start();
    await rejection(connected.readResource({ uri: "file:///x" }));
    const events = await connected.callTool({ name: "get_events", arguments: { limit: 1000 } });
    const text = (events.content[0] as { text: string }).text;
    expect(text).toContain("backend.");
    expectNoSecret(text);
  });

  it("masks a backend's error message and passes only allow-listed data to the client", async () => {
    const connected = await start();
    const error = await rejection(connected.readResource({ uri: "file:///x" }));
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("was refused");
    expectNoSecret({ message: error.message, data: error.data });
    expect(JSON.stringify(error.data)).not.toContain("secret-path");
    expect(error.data).toMatchObject({ backend: "gh", reason: "upstream said [REDACTED]" });
  });

  it("masks a local failure's detail and shows no stack", async () => {
    const connected = await start();
    const error = await rejection(connected.readResource({ uri: "file:///explode" }));
    const detail = (error.data as { detail: string }).detail;
    expect(detail).toContain("POST https://");
    expect(detail).not.toContain("/srv/");
    expectNoSecret(error.data);
  });
});
