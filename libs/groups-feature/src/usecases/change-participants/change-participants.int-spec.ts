import { randomUUID } from 'node:crypto';
import type { SessionCommand } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { createOrg, registryPayload, useTestDatabase } from '@mapi/testing';
import { ChangeParticipants } from './change-participants.usecase';

const t = useTestDatabase('change_participants');

/** A session that answers like the network: 200 for the first participant, 404 (not a member) for the rest. */
const sessions = {
  require: async (_phoneId: string, cmd: SessionCommand) => ({
    ok: true as const,
    results: (cmd as Extract<SessionCommand, { cmd: 'group-participants' }>).participants.map((id, i) => ({ id, status: i === 0 ? ('200' as const) : ('404' as const) })),
  }),
} as unknown as SessionCommands;

describe('ChangeParticipants', () => {
  it('writes chat.notification.created for the participants that changed, as the registry\'s notification object', async () => {
    const org = await createOrg(t.prisma);
    const phone = { phone_id: 'phone-participants1', org_phone: '15550001111@c.us' };
    const ctx = { org_id: org.id, token_id: randomUUID(), phone_scope: null, phone };
    const group = '120363000000000001@g.us';
    const outcomes = await new ChangeParticipants('demote', sessions, {} as NatsRpcClient, t.prisma).execute({ ctx, params: { chat_id: group }, body: { participants: ['15550002222', '15550003333'] } });
    expect(Object.values(outcomes).map((o) => o.is_success)).toEqual([true, false]);

    const [row, ...more] = await t.prisma.outboxEvent.findMany({ where: { org_id: org.id } });
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({ type: 'chat.notification.created', phone_id: phone.phone_id });
    expect(() => registryPayload(row)).not.toThrow();
    expect(row.payload).toMatchObject({
      chat_id: group,
      org_phone: phone.org_phone,
      type: 'demote',
      author: phone.org_phone,
      recipientids: ['15550002222@c.us'],
      notification_type: 'group.demote',
      participants: ['15550002222@c.us'],
    });
  });
});
