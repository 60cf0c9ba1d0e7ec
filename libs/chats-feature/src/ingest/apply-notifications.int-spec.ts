import type { GroupNotification, IngestEvent } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { NotificationRepository } from '../repositories/notification-repository';
import { ListChatNotifications } from '../usecases/list-chat-notifications/list-chat-notifications.usecase';
import { ListNotifications } from '../usecases/list-notifications/list-notifications.usecase';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('apply_notifications');
type Phone = { org_id: string; phone_id: string; org_phone: string };

async function phone(orgId?: string): Promise<Phone> {
  const org = orgId ?? (await createOrg(t.prisma)).id;
  const p = await createPhone(t.prisma, org);
  return { org_id: org, phone_id: p.phone_id, org_phone: p.org_phone as string };
}
const group = () => `120363${randomDigits(12)}@g.us`;
const note = (chat_id: string, over: Partial<GroupNotification> = {}): GroupNotification => ({
  chat_id,
  id: `N${randomDigits(10)}`,
  type: 'add',
  author: '15550001111@c.us',
  recipients: ['15550002222@c.us'],
  body: null,
  timestamp: new Date().toISOString(),
  ...over,
});
const event = (p: Phone, notifications: GroupNotification[]): IngestEvent => ({ ...p, kind: 'group-notifications', notifications });
const ctx = (orgId: string, phone: Phone | null = null, scope: string[] | null = null) => ({
  org_id: orgId,
  token_id: '00000000-0000-4000-8000-000000000000',
  phone_scope: scope,
  phone: phone && { phone_id: phone.phone_id, org_phone: phone.org_phone },
});
const page = { offset: 0, limit: 2000 };

describe('group notifications ingestion', () => {
  it('stores each network notification once and writes one chat.notification.created for it, even when redelivered', async () => {
    const p = await phone();
    const g = group();
    const n = [
      note(g, { type: 'promote', timestamp: '2026-01-01T10:00:00.000Z' }),
      note(g, { type: 'subject', recipients: [], body: 'New name', timestamp: '2026-01-01T10:00:01.000Z' }),
    ];
    await new ApplyIngest(t.prisma).execute([event(p, n)]);
    await new ApplyIngest(t.prisma).execute([event(p, n), event(p, [n[1]])]); // redelivery, and the same notification again in one batch

    const rows = await t.prisma.chatNotification.findMany({ where: { org_id: p.org_id }, orderBy: { timestamp: 'asc' } });
    expect(rows.map((r) => [r.type, r.unique_id, r.body])).toEqual([
      ['promote', n[0].id, null],
      ['subject', n[1].id, 'New name'],
    ]);
    const events = await t.prisma.outboxEvent.findMany({
      where: { org_id: p.org_id, type: 'chat.notification.created' },
      orderBy: { seq: 'asc' },
    });
    expect(events).toHaveLength(2);
    events.forEach((e) => expect(() => registryPayload(e)).not.toThrow());
    expect(events[0].payload).toEqual({
      notification_id: rows[0].notification_id,
      chat_id: g,
      org_id: p.org_id,
      org_phone: p.org_phone,
      type: 'promote',
      author: '15550001111@c.us',
      recipientids: ['15550002222@c.us'],
      body: null,
      id: null,
      metadata: null,
      unique_id: n[0].id,
      timestamp: '2026-01-01T10:00:00.000Z',
      notification_type: 'group.promote',
      participants: ['15550002222@c.us'],
      performed_by: '15550001111@c.us',
    });
  });

  it("keeps one copy per phone: two phones of the organization in the group each store the network's notification", async () => {
    const p1 = await phone();
    const p2 = await phone(p1.org_id);
    const n = note(group());
    await new ApplyIngest(t.prisma).execute([event(p1, [n]), event(p2, [n])]);
    expect(await t.prisma.chatNotification.count({ where: { org_id: p1.org_id, unique_id: n.id } })).toBe(2);
  });
});

describe('ListNotifications and ListChatNotifications', () => {
  it("answer the organization's notifications newest first, narrowed to x-phone or the token's phones, never another organization's", async () => {
    const p1 = await phone();
    const p2 = await phone(p1.org_id);
    const stranger = await phone();
    const [g1, g2] = [group(), group()];
    const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, s)).toISOString();
    await new ApplyIngest(t.prisma).execute([
      event(p1, [note(g1, { timestamp: at(1) }), note(g2, { timestamp: at(3) })]),
      event(p2, [note(g1, { timestamp: at(2) })]),
      event(stranger, [note(g1, { timestamp: at(4) })]),
    ]);
    const repo = new NotificationRepository(t.prisma);
    const all = await new ListNotifications(repo).execute({ ctx: ctx(p1.org_id), query: page });
    expect(all).toMatchObject({ from: 1, to: 3, count: 3 });
    expect(all.notifictions.map((n) => n.timestamp)).toEqual([at(3), at(2), at(1)]);
    expect(all.notifictions.every((n) => n.org_id === p1.org_id)).toBe(true);

    const viaPhone = await new ListNotifications(repo).execute({ ctx: ctx(p1.org_id, p2), query: page });
    expect(viaPhone.notifictions.map((n) => n.org_phone)).toEqual([p2.org_phone]);
    const scoped = await new ListNotifications(repo).execute({
      ctx: ctx(p1.org_id, null, [p1.phone_id]),
      query: { ...page, start_time: at(2) },
    });
    expect(scoped.notifictions.map((n) => n.timestamp)).toEqual([at(3)]);
    const none = await new ListNotifications(repo).execute({ ctx: ctx(p1.org_id, null, []), query: page });
    expect(none.count).toBe(0);

    const chat = await new ListChatNotifications(repo).execute({
      ctx: ctx(p1.org_id),
      params: { chat_id: g1 },
      query: { offset: 1, limit: 5 },
    });
    expect(chat).toMatchObject({ from: 2, to: 2, count: 1 });
    expect(chat.notifictions[0].timestamp).toBe(at(1));
    const theirs = await new ListChatNotifications(repo).execute({ ctx: ctx(stranger.org_id), params: { chat_id: g2 }, query: page });
    expect(theirs).toEqual({ from: 0, to: 0, count: 0, notifictions: [] });
  });
});
