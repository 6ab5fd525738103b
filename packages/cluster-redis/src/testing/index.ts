export {
  type RedisServerProcess,
  type StartRedisServerOptions,
  startRedisServer,
} from "./redis-server.js";
