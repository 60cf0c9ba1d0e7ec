import type { Writable } from 'node:stream';
import { NatsRpcServer, bindHandlers, connectNats, createLogger, type BoundRpcHandler } from '@mapi/platform';
import { createGatewayApp, loadGatewayConfig, type GatewayApp } from '../bootstrap';
import { GatewayRuntime } from '../gateway-runtime';
import { TEST_ROUTES, TEST_SERVICE_HANDLERS } from './test-routes';

export interface TestGateway {
  gateway: GatewayApp;
  /** http://127.0.0.1:<port> */
  base: string;
  close(): Promise<void>;
}

/**
 * For the gateway's integration specs: the test service (echo, slow, failing…) answering its
 * contracts over NATS, and an in-process gateway serving TEST_ROUTES on a free port of 127.0.0.1,
 * configured from `env` (NAMESPACE included); logs go to the given streams.
 */
export async function startTestGateway(options: {
  env: Record<string, string | undefined>;
  gatewayLog: Writable;
  serviceLog: Writable;
  validateReplies?: boolean;
  /** More handlers for the test service to answer (e.g. a stand-in of phones.v1.directory for x-phone). */
  handlers?: readonly BoundRpcHandler[];
}): Promise<TestGateway> {
  const { env } = options;
  const serviceNc = await connectNats(env.NATS_URL as string, 'gateway-test-service');
  const server = new NatsRpcServer({
    nc: serviceNc,
    namespace: env.NAMESPACE as string,
    handlers: [...bindHandlers(TEST_SERVICE_HANDLERS, undefined), ...(options.handlers ?? [])],
    logger: createLogger('testecho', 'info', options.serviceLog),
    validateReplies: options.validateReplies,
  });
  await server.listen();
  const runtime = await GatewayRuntime.open(loadGatewayConfig(env), createLogger('api-gateway', 'info', options.gatewayLog));
  const gateway = await createGatewayApp(runtime, TEST_ROUTES);
  await gateway.app.listen(0, '127.0.0.1');
  const base = (await gateway.app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    gateway,
    base,
    close: async () => {
      await gateway.app.close();
      await gateway.runtime.close();
      await server.close();
      await serviceNc.drain();
    },
  };
}
