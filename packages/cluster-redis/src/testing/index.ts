export {
  type LoadBalancer,
  type RoutedRequest,
  startLoadBalancer,
  TARGET_HEADER,
} from "./load-balancer.js";
export {
  type RedisServerProcess,
  type StartRedisServerOptions,
  startRedisServer,
} from "./redis-server.js";
