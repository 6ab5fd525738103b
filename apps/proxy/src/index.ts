export { demoConfig } from "./demo-config.js";
export { type ProxyOptions, type RunningProxy, startProxy } from "./proxy.js";
export { createProxyLog, type ProxyLog } from "./proxy-log.js";
export { loadProxyConfig } from "./proxy-reload.js";
