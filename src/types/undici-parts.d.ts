// Types for the undici modules src/api/undici-wire.ts imports directly (undici types only its index).
declare module "undici/lib/dispatcher/dispatcher.js" {
  import { Dispatcher } from "undici";
  export default Dispatcher;
}
declare module "undici/lib/dispatcher/agent.js" {
  import { Agent } from "undici";
  export default Agent;
}
declare module "undici/lib/dispatcher/env-http-proxy-agent.js" {
  import { EnvHttpProxyAgent } from "undici";
  export default EnvHttpProxyAgent;
}
declare module "undici/lib/api/index.js" {
  import type { Dispatcher } from "undici";
  const api: {
    request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
    stream: unknown;
    pipeline: unknown;
    upgrade: unknown;
    connect: unknown;
  };
  export default api;
}
