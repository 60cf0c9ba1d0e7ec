import { randomUUID } from 'node:crypto';
import type { Media } from '@mapi/contracts';
import { useTestDatabase } from '@mapi/testing';
import { newUniqueId, SandboxNetwork, toIngestMessage, type PendingRow } from './sandbox-network';

/**
 * The sandbox network's pending rows (sandbox_pending) in real Postgres: what the connector hands on
 * and what it must not hand on twice, including an ack raised while a page is being handed on.
 */
describe('SandboxNetwork pending rows (integration)', () => {
  const t = useTestDatabase('phones_sandbox_pending');
  let network: SandboxNetwork;
  const phone = 'phone-pendingaaaaaaaaa';
  const other = 'phone-pendingbbbbbbbbb';

  beforeAll(() => {
    network = new SandboxNetwork(t.prisma);
  });

  const add = (phoneId: string, extra: { ack?: number; sent_message_id?: string; media?: Media } = {}) =>
    network.addMessage(phoneId, {
      chat_id: '15550000001@c.us',
      unique_id: newUniqueId(),
      from_me: true,
      sender_phone: '15550000009@c.us',
      body: 'hello',
      message_type: 'chat',
      timestamp: '2026-11-22T10:00:00.123Z',
      ack: 1,
      ...extra,
    });
  const summary = (rows: PendingRow[]) => rows.map((r) => ({ id: r.id, new_message: r.new_message, pending_ack: r.pending_ack }));

  it('stores the message and returns it as a row of sandbox_messages (no delivery columns)', async () => {
    const sent = randomUUID();
    const media: Media = {
      dimensions: { ar: 1, height: 10, width: 10 },
      filename: 'a.png',
      mimetype: 'image/png',
      path: 'org/a.png',
      size: 42,
      thumbnail: '',
    };
    const row = await add(other, { ack: 2, sent_message_id: sent, media });
    expect(row).toEqual({
      id: expect.any(BigInt),
      phone_id: other,
      chat_id: '15550000001@c.us',
      unique_id: expect.stringMatching(/^3EB0/),
      from_me: true,
      sender: '15550000009@c.us',
      sender_name: null,
      body: 'hello',
      message_type: 'chat',
      media,
      timestamp: new Date('2026-11-22T10:00:00.123Z'),
      ack: 2,
      sent_message_id: sent,
      is_forwarded: false,
      is_deleted: false,
      quoted_message_id: null,
    });
    expect(await network.sentMessage(other, sent)).toEqual(row);
    const plain = await network.addMessage(other, {
      chat_id: '1@c.us',
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: '1@c.us',
      body: null,
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    expect(plain).toMatchObject({ ack: 0, media: null, body: null, sent_message_id: null, sender_name: null });
    const named = await network.addMessage(other, {
      chat_id: '2@c.us',
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: '2@c.us',
      sender_name: 'Named',
      body: 'hi',
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    expect(toIngestMessage(named)).toMatchObject({ sender_phone: '2@c.us', sender_name: 'Named' });
    expect(toIngestMessage(plain)).not.toHaveProperty('sender_name');
  });

  it('a new message is pending once, with its ack; after markDelivered it is not pending', async () => {
    const m = await add(phone);
    const rows = await network.pending(phone);
    expect(summary(rows)).toEqual([{ id: m.id, new_message: true, pending_ack: 1 }]);
    expect(rows[0]).toMatchObject({ unique_id: m.unique_id, ack: 1, phone_id: phone });
    await network.markDelivered(rows);
    expect(await network.pending(phone)).toEqual([]);
  });

  it('an ack raised before the message was handed on travels with the message', async () => {
    const m = await add(phone);
    await network.setAck(m.id, 2);
    const rows = await network.pending(phone);
    expect(summary(rows)).toEqual([{ id: m.id, new_message: true, pending_ack: 2 }]);
    expect(rows[0].ack).toBe(2);
    await network.markDelivered(rows);
    expect(await network.pending(phone)).toEqual([]);
  });

  it('an ack raised after delivery comes back as an ack-only row', async () => {
    const m = await add(phone);
    await network.markDelivered(await network.pending(phone));
    await network.setAck(m.id, 3);
    const rows = await network.pending(phone);
    expect(summary(rows)).toEqual([{ id: m.id, new_message: false, pending_ack: 3 }]);
    expect((await network.message(phone, m.unique_id))?.ack).toBe(3);
    await network.markDelivered(rows);
    expect(await network.pending(phone)).toEqual([]);
  });

  it('an ack raised between pending() and markDelivered survives the mark, and the message is not handed on twice', async () => {
    const a = await add(phone);
    const b = await add(phone);
    const page = await network.pending(phone);
    expect(summary(page)).toEqual([
      { id: a.id, new_message: true, pending_ack: 1 },
      { id: b.id, new_message: true, pending_ack: 1 },
    ]);
    await network.setAck(b.id, 2); // while the page is being handed on (with ack 1)
    await network.markDelivered(page);
    const next = await network.pending(phone);
    expect(summary(next)).toEqual([{ id: b.id, new_message: false, pending_ack: 2 }]);

    await network.setAck(b.id, 3); // again, while the ack-only row is being handed on
    await network.markDelivered(next);
    expect(summary(await network.pending(phone))).toEqual([{ id: b.id, new_message: false, pending_ack: 3 }]);
    await network.markDelivered(await network.pending(phone));
    expect(await network.pending(phone)).toEqual([]);
  });

  it('reads a phone’s rows only, oldest first, a page at a time', async () => {
    const mine = [await add(phone), await add(phone), await add(phone)];
    await add(other);
    await add(`${phone}0`); // sorts right after the phone's own rows in the (phone_id, message_id) index
    const first = await network.pending(phone, 2);
    expect(first.map((r) => r.id)).toEqual([mine[0].id, mine[1].id]);
    await network.markDelivered(first);
    const second = await network.pending(phone, 2);
    expect(second.map((r) => r.id)).toEqual([mine[2].id]);
    expect([...first, ...second].every((r) => r.phone_id === phone)).toBe(true);
    await network.markDelivered(second);
    expect(await network.pending(phone)).toEqual([]);
    // The other phones' rows were never read nor marked: all still pending.
    expect((await network.pending(other)).map((r) => r.phone_id)).toEqual([other, other, other, other]);
    expect((await network.pending(`${phone}0`)).map((r) => r.phone_id)).toEqual([`${phone}0`]);
  });

  it('marking nothing is a no-op, and a pending row goes with its message', async () => {
    await network.markDelivered([]);
    const m = await add(phone);
    await t.prisma.sandboxMessage.delete({ where: { id: m.id } });
    expect(await network.pending(phone)).toEqual([]);
    expect(await t.prisma.sandboxPending.count({ where: { message_id: m.id } })).toBe(0);
  });

  it('reads the device with one message of its history in one statement, as device() and message() read them', async () => {
    const phoneId = 'phone-withmsgaaaaaaaaa';
    await network.ensureDevice(phoneId, randomUUID());
    const media: Media = {
      dimensions: { ar: 1, height: 10, width: 10 },
      filename: 'a.png',
      mimetype: 'image/png',
      path: 'org/a.png',
      size: 42,
      thumbnail: '',
    };
    const row = await add(phoneId, { ack: 2, sent_message_id: randomUUID(), media });
    expect(await network.deviceWithMessage(phoneId, row.unique_id)).toEqual({
      device: await network.device(phoneId),
      message: await network.message(phoneId, row.unique_id),
    });
    expect(await network.deviceWithMessage(phoneId, 'NOSUCHMESSAGE')).toEqual({ device: await network.device(phoneId), message: null });
    expect(await network.deviceWithMessage('phone-nodeviceaaaaaaaa', row.unique_id)).toBeNull(); // no such device
  });
});
