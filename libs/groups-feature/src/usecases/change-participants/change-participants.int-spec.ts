import { randomUUID } from 'node:crypto';
import type { SessionCommand } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { createOrg, useTestDatabase } from '@mapi/testing';
import { ChangeParticipants } from './change-participants.usecase';

const t = useTestDatabase('change_participants');

/** A session that answers like the network: 200 for the first participant, 404 (not a member) for the rest. */
const sessions = {
  require: async (_phoneId: string, cmd: SessionCommand) => ({
    ok: true as const,
    results: (cmd as Extract<SessionCommand, { cmd: 'group-participants' }>).participants.map((id, i) => ({
      id,
      status: i === 0 ? ('200' as const) : ('404' as const),
    })),
  }),
} as unknown as SessionCommands;

describe('ChangeParticipants', () => {
  it("answers the network's outcome per participant and writes no event itself: the network's echoed notification is the one", async () => {
    const org = await createOrg(t.prisma);
    const phone = { phone_id: 'phone-participants1', org_phone: '15550001111@c.us' };
    const ctx = { org_id: org.id, token_id: randomUUID(), phone_scope: null, phone };
    const group = '120363000000000001@g.us';
    const outcomes = await new ChangeParticipants('demote', sessions, {} as NatsRpcClient).execute({
      ctx,
      params: { chat_id: group },
      body: { participants: ['15550002222', '15550003333', '15550002222'] },
    });
    expect(outcomes).toEqual({
      '15550002222@c.us': { is_success: true, message: 'Demoted to member', code: 200 },
      '15550003333@c.us': { is_success: false, message: 'Not a member of this group', code: 404 },
    });
    expect(await t.prisma.outboxEvent.count({ where: { org_id: org.id } })).toBe(0);
  });
});
