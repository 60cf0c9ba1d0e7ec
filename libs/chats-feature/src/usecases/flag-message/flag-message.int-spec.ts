import { randomUUID } from 'node:crypto';
import { ServiceError } from '@mapi/contracts';
import { createMessages, createOrg, createPhone, useTestDatabase } from '@mapi/testing';
import { MessageRefRepository } from '../../repositories/message-ref-repository';
import { FlagMessage } from './flag-message.usecase';

const t = useTestDatabase('flag_message');
const ctxOf = (orgId: string, phone: { phone_id: string; org_phone: string | null } | null = null) => ({
  org_id: orgId,
  token_id: randomUUID(),
  phone_scope: null,
  phone,
});

/** chats.v1.message.flag: every copy the organization holds, one event per change, nothing for a repeat, another organization's message 404. */
describe('FlagMessage', () => {
  const flag = (ctx: ReturnType<typeof ctxOf>, id: string, on: boolean) =>
    new FlagMessage(new MessageRefRepository(t.prisma), t.prisma).execute({ ctx, params: { message_id: id }, body: { flag: on } });
  const events = (orgId: string) =>
    t.prisma.outboxEvent.findMany({
      where: { org_id: orgId, type: { in: ['message.flagged', 'message.unflagged'] } },
      orderBy: { seq: 'asc' },
    });

  it('flags every copy of the message, emits message.flagged once; a repeat changes nothing; clearing emits message.unflagged', async () => {
    const org = await createOrg(t.prisma);
    const [p1, p2] = [await createPhone(t.prisma, org.id), await createPhone(t.prisma, org.id)];
    const [copy1] = await createMessages(t.prisma, org, p1 as any, [{ chatId: '120363000000001@g.us', body: 'in a shared group' }]);
    await t.prisma.message.create({ data: { ...copy1, phone_id: p2.phone_id, org_phone: p2.org_phone ?? copy1.org_phone } });
    const ctx = ctxOf(org.id, { phone_id: p1.phone_id, org_phone: p1.org_phone });

    const flagged = await flag(ctx, copy1.message_id, true);
    expect(flagged).toMatchObject({
      message_id: copy1.message_id,
      flag_status: true,
      flag_metadata: { status: true, flagged_by: ctx.token_id },
    });
    const copies = await t.prisma.message.findMany({ where: { org_id: org.id, unique_id: copy1.unique_id } });
    expect(copies.map((c) => c.flag_status)).toEqual([true, true]);
    expect(await flag(ctx, copy1.message_id, true)).toMatchObject({ flag_status: true });
    let evs = await events(org.id);
    expect(evs.map((e) => [e.type, (e.previous_attributes as any)?.flag_status ?? null])).toEqual([['message.flagged', null]]);

    const cleared = await flag(ctx, copy1.message_id, false);
    expect(cleared).toMatchObject({
      flag_status: false,
      flag_metadata: { status: false, flagged_by: ctx.token_id, response_type: 'manual', response_email: ctx.token_id },
    });
    evs = await events(org.id);
    expect(evs.map((e) => [e.type, (e.previous_attributes as any)?.flag_status])).toEqual([
      ['message.flagged', null],
      ['message.unflagged', true],
    ]);
  });

  it("another organization's message is 404 and stays as it was", async () => {
    const [org, other] = [await createOrg(t.prisma), await createOrg(t.prisma)];
    const q = await createPhone(t.prisma, other.id);
    const [theirs] = await createMessages(t.prisma, other, q as any, [{ chatId: '15550002222@c.us', body: 'theirs' }]);
    const err = await flag(ctxOf(org.id), theirs.message_id, true).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ status: 404 });
    expect((await t.prisma.message.findFirstOrThrow({ where: { message_id: theirs.message_id } })).flag_status).not.toBe(true);
    expect(await events(org.id)).toHaveLength(0);
  });

  it("records a rule's reason, never re-flags with unless_flagged_before once cleared, and clears with a reply as the response", async () => {
    const org = await createOrg(t.prisma);
    const p = await createPhone(t.prisma, org.id);
    const [m] = await createMessages(t.prisma, org, p as any, [{ chatId: '15550003333@c.us', body: 'refund please' }]);
    const ctx = ctxOf(org.id, { phone_id: p.phone_id, org_phone: p.org_phone });
    const run = (body: Parameters<FlagMessage['execute']>[0]['body']) =>
      new FlagMessage(new MessageRefRepository(t.prisma), t.prisma).execute({ ctx, params: { message_id: m.message_id }, body });
    const rule = { reason: 'Refunds: the message says "refund"', flagged_by: 'rule:Refunds', rule_id: 'r1', unless_flagged_before: true };
    expect(await run({ flag: true, ...rule })).toMatchObject({
      flag_status: true,
      flag_metadata: { status: true, flagged_by: 'rule:Refunds', reason: rule.reason, rule_id: 'r1' },
    });
    const reply = {
      type: 'message' as const,
      response_id: 'true_x_reply',
      response_timestamp: '2026-11-29T10:00:00.000Z',
      response_phone: p.phone_id,
    };
    expect(await run({ flag: false, response: reply })).toMatchObject({
      flag_status: false,
      flag_metadata: {
        status: false,
        reason: rule.reason,
        response_type: 'message',
        response_id: 'true_x_reply',
        response_phone: p.phone_id,
      },
    });
    expect(await run({ flag: true, ...rule })).toMatchObject({ flag_status: false });
    expect((await events(org.id)).map((e) => e.type)).toEqual(['message.flagged', 'message.unflagged']);
  });
});
