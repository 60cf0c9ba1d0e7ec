import { DeliveryInfoSchema, MediaSchema } from '@mapi/contracts';
import { buildDemoMessages, demoUniqueId, ftsOf } from './demo-messages';
import { DEMO_CHATS } from './demo-script';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const phones = [
  { phone_id: 'phone-aaaaaaaaaaaaaaaa', org_phone: '14155550100@c.us' },
  { phone_id: 'phone-bbbbbbbbbbbbbbbb', org_phone: '14155550111@c.us' },
];
const now = new Date('2026-11-22T12:00:00.456Z');
const build = () => DEMO_CHATS.flatMap((chat) => buildDemoMessages(ORG, phones[chat.phone], chat, now));

describe('demo messages', () => {
  it('makes about fifty messages across an individual and a group chat', () => {
    const rows = build();
    expect(rows.length).toBeGreaterThanOrEqual(45);
    expect(rows.length).toBeLessThanOrEqual(55);
    expect(new Set(rows.map((r) => r.chat_id))).toEqual(new Set(['14155550123@c.us', '120363041234567890@g.us']));
  });

  it('uses the stored id shapes of spec 2.1', () => {
    const rows = build();
    for (const row of rows) {
      expect(row.unique_id).toMatch(/^3EB0[0-9A-F]{16}$/);
      expect(row.message_id).toBe(`${row.from_me}_${row.chat_id}_${row.unique_id}`);
      expect(row.sender_phone).toMatch(/^[0-9]+@c\.us$/);
      expect(row.org_phone).toBe(phones.find((p) => p.phone_id === row.phone_id)?.org_phone);
      if (row.from_me) expect(row.sender_phone).toBe(row.org_phone);
      expect(['chat', 'image']).toContain(row.message_type);
      expect(row.ack).toBeGreaterThanOrEqual(0);
      expect(row.ack).toBeLessThanOrEqual(4);
    }
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(rows.length);
  });

  it('derives the same ids every time (what makes seeding idempotent)', () => {
    expect(build().map((r) => r.message_id)).toEqual(build().map((r) => r.message_id));
    expect(demoUniqueId(ORG, 'phone-a', 'x@c.us', 1)).not.toBe(demoUniqueId(ORG, 'phone-a', 'x@c.us', 2));
  });

  it('spreads whole-second timestamps over the last days, in order, none in the future', () => {
    for (const chat of DEMO_CHATS) {
      const times = buildDemoMessages(ORG, phones[chat.phone], chat, now).map((r) => new Date(r.timestamp).getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const t of times) {
        expect(t % 1000).toBe(0);
        expect(t).toBeLessThan(now.getTime());
        expect(t).toBeGreaterThan(now.getTime() - 7 * 86_400_000);
      }
      expect(new Set(times.map((t) => new Date(t).toISOString().slice(0, 10))).size).toBeGreaterThanOrEqual(3);
    }
  });

  it('gives images a full media object and chat messages none', () => {
    const rows = build();
    const images = rows.filter((r) => r.message_type === 'image');
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const row of images) expect(() => MediaSchema.parse(row.media)).not.toThrow();
    for (const row of rows.filter((r) => r.message_type === 'chat')) expect(row.media).toBeUndefined();
  });

  it('records delivery, with per-contact maps for outgoing group messages', () => {
    for (const row of build()) {
      const info = DeliveryInfoSchema.parse(row.delivery_info);
      expect(info.pending).toEqual([]);
      const groupOutgoing = row.from_me && row.chat_id.endsWith('@g.us');
      if (groupOutgoing) {
        expect(Object.keys(info.delivered ?? {})).toHaveLength(info.delivered_count);
        expect(Object.keys(info.read ?? {})).toHaveLength(info.read_count);
        expect(info.delivered_count).toBe(3);
      } else {
        expect(info.delivered).toBeUndefined();
      }
      if (!row.from_me) expect(info).toEqual({ delivered_count: 0, read_count: 0, pending: [] });
    }
  });

  it('derives fts from the lower-cased words of the body', () => {
    expect(ftsOf("Hi! I'll check order #4521 😊")).toBe("hi i'll check order 4521");
    expect(ftsOf('🙌')).toBeNull();
    expect(ftsOf(null)).toBeNull();
    for (const row of build()) expect(row.fts).toBe(ftsOf(row.body ?? null));
  });
});
