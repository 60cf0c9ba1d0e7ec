import { randomUUID } from 'node:crypto';
import { GetPhoneRpc, UpdatePhoneRpc } from './phone-routes.contract';

const ctx = { org_id: randomUUID(), token_id: randomUUID(), phone_scope: null, phone: null };

describe('phone RPC requests', () => {
  it('a route without a body accepts a request with none, and ignores one sent anyway', () => {
    expect(GetPhoneRpc.request.safeParse({ ctx }).success).toBe(true);
    expect(GetPhoneRpc.request.safeParse({ ctx, body: { x: 1 } }).success).toBe(true);
  });

  it('a route with a body validates it', () => {
    expect(UpdatePhoneRpc.request.safeParse({ ctx, body: { phone_name: 'front desk' } }).success).toBe(true);
    expect(UpdatePhoneRpc.request.safeParse({ ctx, body: {} }).success).toBe(false);
  });
});
