import { createChat, createMessages, createOrg, createPhone, createToken } from '@mapi/testing';
import { client } from './http';
import type { Stack } from './stack';

/** A chat seen by a phone: `p1`, `p2` (the organization's) or `q` (the other organization's). */
export type ChatPlacement = readonly ['p1' | 'p2' | 'q', string];

/**
 * The world of the inbox specs: an organization with phones p1 and p2, another organization with
 * phone q, one message in each placed chat (a minute apart, in the order given), and API clients:
 * `api` (the organization's token), `other` (the other organization's) and `scoped` (limited to p1).
 */
export async function twoOrganizations(stack: Stack, chats: readonly ChatPlacement[]) {
  const p = stack.prisma;
  const org = await createOrg(p);
  const otherOrg = await createOrg(p);
  const phones = { p1: await createPhone(p, org.id), p2: await createPhone(p, org.id), q: await createPhone(p, otherOrg.id) };
  for (const [i, [phone, chatId]] of chats.entries()) {
    const owner = phone === 'q' ? otherOrg : org;
    // createPhone always gives a number, though the row's type allows none
    const seenBy = phones[phone] as typeof phones.p1 & { org_phone: string };
    await createMessages(p, owner, seenBy, [{ chatId, timestamp: new Date(Date.UTC(2026, 1, 1, 9, i + 1)) }]);
    await createChat(p, owner, phones[phone], { chatId });
  }
  return {
    org,
    otherOrg,
    ...phones,
    api: client(stack.baseUrl, (await createToken(p, org.id)).token),
    other: client(stack.baseUrl, (await createToken(p, otherOrg.id)).token),
    scoped: client(stack.baseUrl, (await createToken(p, org.id, { phoneIds: [phones.p1.phone_id] })).token),
  };
}
