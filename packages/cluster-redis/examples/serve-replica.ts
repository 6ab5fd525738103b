import { createServer, type Server } from "node:http";
import { createRedisCluster, type RedisCluster } from "@patchbay/cluster-redis";
import { createHttpGateway } from "@patchbay/http-gateway";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { createServer as createMcpServer } from "@patchbay/server";

/**
 * One replica: a router over an in-memory backend, served at /mcp by an HTTP gateway whose
 * sessions, resumable events and rate limits live in the Redis at `redisUrl`. Start several (one
 * per process, or per port) behind a load balancer: any of them serves any request of a session.
 */
export async function serveReplica(
  redisUrl: string,
  replicaId: string,
  secret: string,
): Promise<{ server: Server; cluster: RedisCluster }> {
  const notes = createMcpServer({ name: "notes", version: "1.0.0" });
  notes.registerTool("read_note", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const { config } = parseGatewayConfig({ mcpServers: { notes: { command: "in-memory" } } });
  const router = createRouter({
    config,
    async connect() {
      const [clientSide, serverSide] = createMemoryTransportPair();
      await notes.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  const cluster = await createRedisCluster({
    url: redisUrl,
    secret, // the same on every replica, never in Redis: `openssl rand -base64 32`
    replicaId,
    sessionTtlMs: 30 * 60_000,
    onWarning: (message) => console.warn(message),
  });
  const gateway = createHttpGateway({ router, cluster });
  const server = createServer((request, response) => void gateway(request, response));
  server.listen(0, "127.0.0.1");
  return { server, cluster };
}
