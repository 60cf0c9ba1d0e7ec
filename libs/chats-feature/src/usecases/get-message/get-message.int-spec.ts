import { randomUUID } from 'node:crypto';
import { ServiceError } from '@mapi/contracts';
import { createMessages, createOrg, createPhone, useTestDatabase } from '@mapi/testing';
import { MessageRefRepository } from '../../repositories/message-ref-repository';
import { GetMessage } from './get-message.usecase';

const t = useTestDatabase('get_message');
const ctxOf = (orgId: string, over: { phone_scope?: string[] | null; phone?: { phone_id: string; org_phone: string } | null } = {}) => ({
  org_id: orgId,
  token_id: randomUUID(),
  phone_scope: over.phone_scope ?? null,
  phone: over.phone ?? null,
});

describe('GetMessage', () => {
  let w: Record<string, any>;
  beforeAll(async () => {
    const org = await createOrg(t.prisma);
    const other = await createOrg(t.prisma);
    const p1 = await createPhone(t.prisma, org.id);
    const p2 = await createPhone(t.prisma, org.id);
    const q = await createPhone(t.prisma, other.id);
    const queueId = randomUUID();
    const [sent, received, wamid] = await createMessages(t.prisma, org, p1 as any, [
      { chatId: '15550001111@c.us', fromMe: true, body: 'sent through the queue', overrides: { sent_message_id: queueId } },
      { chatId: '15550001111@c.us', body: 'hi there' },
      // a Cloud API phone's message: Meta's id (base64url) may hold `_`
      {
        chatId: '15550001111@c.us',
        body: 'from the Cloud API',
        overrides: { unique_id: 'wamid.HBg_Lc2_x-9', message_id: 'false_15550001111@c.us_wamid.HBg_Lc2_x-9' },
      },
    ]);
    const [foreign] = await createMessages(t.prisma, other, q as any, [{ chatId: '15550001111@c.us', body: 'theirs' }]);
    w = { org, other, p1, p2, queueId, sent, received, wamid, foreign };
  });

  const get = (ctx: ReturnType<typeof ctxOf>, id: string) =>
    new GetMessage(new MessageRefRepository(t.prisma)).execute({ ctx, params: { message_id: id } });
  const notFound = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND_ERROR' });
  };

  it('finds a message by its message_id and by the queue id of its send (any case)', async () => {
    expect(await get(ctxOf(w.org.id), w.received.message_id)).toMatchObject({
      message_id: w.received.message_id,
      body: 'hi there',
      from_me: false,
    });
    const byQueue = await get(ctxOf(w.org.id), w.queueId.toUpperCase());
    expect(byQueue).toMatchObject({ message_id: w.sent.message_id, sent_message_id: w.queueId, body: 'sent through the queue' });
  });

  it('finds a message whose unique id holds `_` (split after the chat id, not at the last `_`)', async () => {
    expect(await get(ctxOf(w.org.id), w.wamid.message_id)).toMatchObject({ unique_id: 'wamid.HBg_Lc2_x-9', body: 'from the Cloud API' });
  });

  it("answers 404 for a queue id not sent yet, an unknown id, and another organization's message", async () => {
    await notFound(get(ctxOf(w.org.id), randomUUID()));
    await notFound(get(ctxOf(w.org.id), `false_15550001111@c.us_3EB0NOPE`));
    await notFound(get(ctxOf(w.org.id), 'not-an-id'));
    await notFound(get(ctxOf(w.org.id), w.foreign.message_id));
    expect(await get(ctxOf(w.other.id), w.foreign.message_id)).toMatchObject({ body: 'theirs' });
  });

  it("reads only the phones within reach (x-phone, or the token's scope)", async () => {
    await notFound(get(ctxOf(w.org.id, { phone_scope: [w.p2.phone_id] }), w.received.message_id));
    await notFound(get(ctxOf(w.org.id, { phone: { phone_id: w.p2.phone_id, org_phone: w.p2.org_phone } }), w.received.message_id));
    expect(await get(ctxOf(w.org.id, { phone_scope: [w.p1.phone_id, w.p2.phone_id] }), w.received.message_id)).toMatchObject({
      body: 'hi there',
    });
  });
});
