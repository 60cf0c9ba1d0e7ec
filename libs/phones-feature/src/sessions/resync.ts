import type { IngestEvent } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { Logger } from 'pino';
import type { PhoneConnector } from '../connector/phone-connector';

type Partial = Omit<IngestEvent, 'org_id' | 'phone_id' | 'org_phone'>;
const HISTORY = 10_000;
const CHUNK = 200;

/**
 * A full resync: re-reads chats and groups, then each chat's history, and hands everything to the
 * chats store as backfill (`append`: idempotent, no message.created events). Progress (0..100) is
 * kept on the phone (sync_status, sync_progress, last_synced_at).
 */
export async function runResync(
  connector: PhoneConnector,
  orgId: string,
  prisma: PrismaClient,
  publish: (e: Partial) => Promise<void>,
  logger: Logger,
): Promise<void> {
  const progress = (data: { sync_status?: string; sync_progress?: number; last_synced_at?: Date }) =>
    prisma.phone.update({ where: { phone_id: connector.phoneId, org_id: orgId }, data });
  try {
    await progress({ sync_status: 'running', sync_progress: 0 });
    const { chats, groups } = await connector.resyncAppState();
    if (chats.length) await publish({ kind: 'chats-upsert', chats } as Partial);
    if (groups.length) await publish({ kind: 'groups-upsert', groups } as Partial);
    for (const [i, chat] of chats.entries()) {
      const history = await connector.fetchMessageHistory(chat.chat_id, HISTORY);
      for (let k = 0; k < history.length; k += CHUNK) {
        await publish({ kind: 'messages-upsert', type: 'append', messages: history.slice(k, k + CHUNK) } as Partial);
      }
      await progress({ sync_progress: Math.floor(((i + 1) / chats.length) * 99) });
    }
    await progress({ sync_status: 'idle', sync_progress: 100, last_synced_at: new Date() });
  } catch (err) {
    logger.warn({ err, phone_id: connector.phoneId }, 'resync failed');
    await progress({ sync_status: 'failed' }).catch(() => undefined);
  }
}
