import type { z } from 'zod';
import type { RpcContract, RpcResponse } from './define-rpc';

/** What a typed client of one RPC needs of the transport: platform's NatsRpcClient, or a fake in tests. */
export interface RpcCaller {
  call<C extends RpcContract>(contract: C, payload: z.input<C['request']>): Promise<RpcResponse<C>>;
}
