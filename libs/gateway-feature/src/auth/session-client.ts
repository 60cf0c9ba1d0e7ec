import { AuthenticateSessionRpc, type AuthenticatedSession } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

/** The members service's answer for a session cookie (members.v1.sessions.authenticate): the live session, or null. */
export interface SessionLookup {
  find(tokenHash: string): Promise<AuthenticatedSession | null>;
}

export class RpcSessionLookup implements SessionLookup {
  constructor(private readonly rpc: NatsRpcClient) {}

  find(tokenHash: string): Promise<AuthenticatedSession | null> {
    return this.rpc.call(AuthenticateSessionRpc, { token_hash: tokenHash });
  }
}
