import type { z } from 'zod';

/**
 * A request/reply message between the gateway and a service: a versioned subject (prefixed with the
 * deployment namespace at run time), the request schema the receiver validates, and the reply schema.
 */
export interface RpcContract<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  subject: string;
  /** Queue group: replicas of the owning service share the subject's load. */
  service: string;
  request: Req;
  response: Res;
}

const SUBJECT = /^[a-z][a-z0-9-]*\.v[0-9]+(\.[a-z][a-z0-9-]*)+$/;

const registry = new Map<string, RpcContract>();

/**
 * Defines an RPC and enters it in the registry: a subject is defined once in a process (a second
 * definition of the same subject throws), and registeredRpcs() lists every contract defined so far.
 */
export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(contract: RpcContract<Req, Res>): RpcContract<Req, Res> {
  if (!SUBJECT.test(contract.subject)) {
    throw new Error(`RPC subject ${contract.subject} must look like <service>.v<N>.<name>`);
  }
  if (registry.has(contract.subject)) throw new Error(`RPC subject ${contract.subject} is defined twice`);
  registry.set(contract.subject, contract);
  return contract;
}

/** Every RPC contract defined in this process (the registry's, once `@mapi/contracts` is loaded). */
export function registeredRpcs(): readonly RpcContract[] {
  return [...registry.values()];
}

export type RpcRequest<C> = C extends RpcContract<infer Req, z.ZodType> ? z.infer<Req> : never;
export type RpcResponse<C> = C extends RpcContract<z.ZodType, infer Res> ? z.infer<Res> : never;
