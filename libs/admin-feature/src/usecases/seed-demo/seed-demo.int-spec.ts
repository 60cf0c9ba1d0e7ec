import { createHash } from 'node:crypto';
import { DeliveryInfoSchema, MediaSchema, PHONE_ID } from '@mapi/contracts';
import { verifyPassword } from '@mapi/platform';
import { useTestDatabase } from '@mapi/testing';
import { SeedDemo, type SeedDemoResult } from './seed-demo.usecase';

describe('SeedDemo', () => {
  const t = useTestDatabase('admin_seed_demo', { poolSize: 4 });
  let first: SeedDemoResult;

  beforeAll(async () => {
    first = await new SeedDemo(t.prisma).execute();
  });

  const counts = async () => ({
    orgs: await t.prisma.organization.count(),
    phones: await t.prisma.phone.count(),
    chats: await t.prisma.chat.count(),
    messages: await t.prisma.message.count(),
    tokens: await t.prisma.apiToken.count(),
    members: await t.prisma.member.count(),
  });
  const signIn = (r: SeedDemoResult) => r.console ?? { email: '', password: '' };
  const demoOwner = () => t.prisma.member.findFirstOrThrow({ where: { org_id: first.org_id, role: 'owner' } });

  it('creates "Demo Org" (active pro) with two connected phones, a user and a group chat', async () => {
    expect(first.org_created).toBe(true);
    const org = await t.prisma.organization.findUniqueOrThrow({ where: { id: first.org_id } });
    expect(org).toMatchObject({ name: 'Demo Org', plan: 'pro', plan_active: true });
    const phones = await t.prisma.phone.findMany({ where: { org_id: org.id } });
    expect(phones).toHaveLength(2);
    for (const phone of phones) {
      expect(PHONE_ID.test(phone.phone_id)).toBe(true);
      expect(phone).toMatchObject({ wa_state: 'CONNECTED', is_ready: true, deleted_at: null });
      expect(phone.org_phone).toMatch(/^[0-9]+@c\.us$/);
      const device = await t.prisma.sandboxDevice.findUniqueOrThrow({ where: { phone_id: phone.phone_id } });
      expect(device).toMatchObject({ state: 'CONNECTED', number: phone.org_phone!.replace('@c.us', ''), org_id: org.id });
    }
    const chats = await t.prisma.chat.findMany({ where: { org_id: org.id }, orderBy: { chat_type: 'desc' } });
    expect(chats.map((c) => [c.chat_type, c.chat_id.replace(/^[0-9]+/, 'N')])).toEqual([
      ['user', 'N@c.us'],
      ['group', 'N@g.us'],
    ]);
    expect(first.chats.reduce((n, c) => n + c.messages, 0)).toBe(first.messages_inserted);
    expect(first.messages_inserted).toBeGreaterThanOrEqual(45);
  });

  it('returns a usable token whose SHA-256 hash alone is stored', async () => {
    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: first.token_id } });
    expect(row).toMatchObject({ org_id: first.org_id, phone_scoped: false, revoked_at: null });
    expect(row.token_hash).toBe(createHash('sha256').update(first.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(first.token);
  });

  it('creates the demo owner, who can sign in to the console with the password it returns', async () => {
    expect(first.console).toEqual({ email: 'owner@demo.example.com', password: expect.stringMatching(/^[A-Za-z0-9]{24}$/) });
    const owner = await demoOwner();
    expect(owner).toMatchObject({ email: 'owner@demo.example.com', member_name: 'Demo Owner', role: 'owner' });
    expect(owner.joined_at).toBeInstanceOf(Date);
    expect(await verifyPassword(owner.password_hash ?? '', signIn(first).password)).toBe(true);
    expect(JSON.stringify(owner)).not.toContain(signIn(first).password);
    expect(await t.prisma.memberAuditEntry.findMany({ where: { org_id: first.org_id } })).toEqual([
      expect.objectContaining({
        actor_type: 'operator',
        action: 'member.owner_created',
        target: 'owner@demo.example.com',
        details: { by: 'seed:demo', role: 'owner' },
      }),
    ]);
  });

  it('stores messages in the shape the chats service reads', async () => {
    const rows = await t.prisma.message.findMany({ where: { org_id: first.org_id } });
    const phones = new Map(first.phones.map((p) => [p.phone_id, p.org_phone]));
    for (const row of rows) {
      expect(row.unique_id).toMatch(/^3EB0[0-9A-F]{16}$/);
      expect(row.message_id).toBe(`${row.from_me}_${row.chat_id}_${row.unique_id}`);
      expect(row.org_phone).toBe(phones.get(row.phone_id));
      expect(row.sender_phone).toMatch(/^[0-9]+@c\.us$/);
      expect(['chat', 'image']).toContain(row.message_type);
      expect(row.ack).toBeGreaterThanOrEqual(0);
      expect(row.ack).toBeLessThanOrEqual(4);
      expect(row.mentioned_ids).toEqual(expect.any(Array));
      expect(row.timestamp.getTime()).toBeLessThanOrEqual(Date.now());
      expect(row.timestamp.getTime()).toBeGreaterThan(Date.now() - 7 * 86_400_000);
      expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(row.timestamp.getTime());
      const words = row.body?.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu);
      expect(row.fts).toBe(words ? words.join(' ') : null);
      const delivery = DeliveryInfoSchema.parse(row.delivery_info);
      expect(delivery.pending).toEqual([]);
      if (row.from_me && row.chat_id.endsWith('@g.us')) {
        expect(Object.keys(delivery.delivered ?? {})).toHaveLength(delivery.delivered_count);
        expect(Object.keys(delivery.read ?? {})).toHaveLength(delivery.read_count);
      }
      if (row.message_type === 'image') expect(() => MediaSchema.parse(row.media)).not.toThrow();
      else expect(row.media).toBeNull();
    }
    expect(rows.some((r) => r.message_type === 'image')).toBe(true);
    expect(new Set(rows.map((r) => r.chat_id)).size).toBe(2);
  });

  it('is idempotent: a second run adds no organization, phone, chat or message, only a new token', async () => {
    const before = await counts();
    const second = await new SeedDemo(t.prisma).execute();
    expect(second).toMatchObject({
      org_id: first.org_id,
      org_created: false,
      phones: first.phones,
      chats: first.chats,
      messages_inserted: 0,
    });
    expect(second.token).not.toBe(first.token);
    expect(await counts()).toEqual({ ...before, tokens: before.tokens + 1 });
    // The same owner, a new password: the previous one no longer signs in, nor do its sessions.
    expect(signIn(second).email).toBe(signIn(first).email);
    expect(signIn(second).password).not.toBe(signIn(first).password);
    const owner = await demoOwner();
    expect(await verifyPassword(owner.password_hash ?? '', signIn(second).password)).toBe(true);
    expect(await verifyPassword(owner.password_hash ?? '', signIn(first).password)).toBe(false);
    const last = await t.prisma.memberAuditEntry.findFirstOrThrow({ where: { org_id: first.org_id }, orderBy: { created_at: 'desc' } });
    expect(last).toMatchObject({
      actor_type: 'operator',
      action: 'member.password_reset',
      target: 'owner@demo.example.com',
      details: { by: 'seed:demo' },
    });
  });

  it('concurrent runs still make one demo organization', async () => {
    const before = await counts();
    const runs = await Promise.all([new SeedDemo(t.prisma).execute(), new SeedDemo(t.prisma).execute()]);
    expect(new Set(runs.map((r) => r.org_id))).toEqual(new Set([first.org_id]));
    expect(await counts()).toEqual({ ...before, tokens: before.tokens + 2 });
    // One owner; the later of the two resets holds (one of the returned passwords signs in).
    const owner = await demoOwner();
    const valid = await Promise.all(runs.map((r) => verifyPassword(owner.password_hash ?? '', signIn(r).password)));
    expect(valid.filter(Boolean)).toHaveLength(1);
  });

  it('leaves an owner an operator set up alone: console is null, that owner unchanged', async () => {
    const owner = await t.prisma.member.update({ where: { member_id: (await demoOwner()).member_id }, data: { email: 'ops@example.com' } });
    const run = await new SeedDemo(t.prisma).execute();
    expect(run.console).toBeNull();
    expect(run.token).toMatch(/^mapi_/);
    expect(await t.prisma.member.findMany({ where: { org_id: first.org_id } })).toEqual([owner]);
  });
});
