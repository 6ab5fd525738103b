export { type LoadBalancer, type RoutedRequest, startLoadBalancer } from "./load-balancer.js";
export {
  type RedisServerProcess,
  type StartRedisServerOptions,
  startRedisServer,
} from "./redis-server.js";
