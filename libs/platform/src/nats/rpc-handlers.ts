import type { HttpReply, ReadyJson, RpcContract, RpcRequest, RpcResponse } from '@mapi/contracts';

/**
 * What a use case may answer for its contract: the response, an HttpReply carrying it (a success
 * status other than the route's), or an HttpReply whose non-2xx body is not the response (spec 7's
 * media errors answer `{ error }`), or the response's JSON already written (ReadyJson: sent as it is).
 */
export type RpcReply<C extends RpcContract> =
  RpcResponse<C> | HttpReply<RpcResponse<C>> | HttpReply<{ error: string }> | ReadyJson<RpcResponse<C>>;

/**
 * The use case of one operation. `execute` is a property, not a method, so the compiler checks its
 * parameter strictly: a use case whose input differs from its contract's request fails to compile,
 * as does one whose answer is not the contract's response.
 */
export interface UseCase<C extends RpcContract> {
  execute: (request: RpcRequest<C>) => RpcReply<C> | Promise<RpcReply<C>>;
}

/** One line of a service's table: a contract and how its use case is built from the service's parts. */
export interface RpcHandler<D> {
  readonly contract: RpcContract;
  readonly build: (deps: D) => BoundRpcHandler;
}

/** A handler ready to serve: the contract and the function the server calls with a validated request. */
export interface BoundRpcHandler {
  readonly contract: RpcContract;
  readonly execute: (request: unknown) => unknown;
}

/**
 * The line builder of a service's handler table, typed by the parts its use cases are built from:
 *
 *     const serve = rpcHandler<ChatsDeps>();
 *     export const CHATS_HANDLERS = [serve(ListChatMessagesRpc, (d) => new ListChatMessages(d.messages))];
 */
export function rpcHandler<D>() {
  return <C extends RpcContract>(contract: C, create: (deps: D) => UseCase<C>): RpcHandler<D> => ({
    contract,
    build: (deps) => {
      const useCase = create(deps);
      return { contract, execute: (request) => useCase.execute(request as RpcRequest<C>) };
    },
  });
}

/** Builds every use case of a table once, at start; a subject served twice is a wiring mistake. */
export function bindHandlers<D>(table: readonly RpcHandler<D>[], deps: D): BoundRpcHandler[] {
  const subjects = new Set<string>();
  return table.map((line) => {
    if (subjects.has(line.contract.subject)) throw new Error(`${line.contract.subject} has two handlers`);
    subjects.add(line.contract.subject);
    return line.build(deps);
  });
}
