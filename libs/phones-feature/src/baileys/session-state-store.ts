import type { PrismaClient } from '@mapi/db';
import type { HistoryAnchor, LidPair, SessionState } from './baileys-types';

/** The session state of one phone: LID ↔ phone number pairs and history anchors, per organization and phone. */
export interface SessionStateStore {
  load(orgId: string, phoneId: string): Promise<SessionState>;
  saveLids(orgId: string, phoneId: string, pairs: readonly LidPair[]): Promise<void>;
  /** Keeps, per chat, the older of the stored anchor and the given one. */
  saveAnchors(orgId: string, phoneId: string, anchors: readonly HistoryAnchor[]): Promise<void>;
  /** Forgets the phone's state (a logout: the next pairing may be another account). */
  clear(orgId: string, phoneId: string): Promise<void>;
}

const CHUNK = 1_000;
const chunks = <T>(xs: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

/** baileys_lids and baileys_history_anchors: one statement per batch of up to 1,000 rows. */
export class PrismaSessionStateStore implements SessionStateStore {
  constructor(private readonly prisma: PrismaClient) {}

  async load(orgId: string, phoneId: string): Promise<SessionState> {
    const [lids, anchors] = await Promise.all([
      this.prisma.baileysLid.findMany({ where: { org_id: orgId, phone_id: phoneId }, select: { lid: true, pn: true } }),
      this.prisma.baileysHistoryAnchor.findMany({ where: { org_id: orgId, phone_id: phoneId } }),
    ]);
    return {
      lids,
      anchors: anchors.map((a) => ({
        chat_id: a.chat_id,
        key: { remoteJid: a.remote_jid, id: a.message_id, fromMe: a.from_me, ...(a.participant ? { participant: a.participant } : {}) },
        ms: a.message_at.getTime(),
      })),
    };
  }

  async saveLids(orgId: string, phoneId: string, pairs: readonly LidPair[]): Promise<void> {
    for (const batch of chunks(pairs)) {
      await this.prisma.$executeRaw`
        INSERT INTO baileys_lids (org_id, phone_id, lid, pn)
        SELECT ${orgId}::uuid, ${phoneId}, u.lid, u.pn FROM unnest(${batch.map((p) => p.lid)}::text[], ${batch.map((p) => p.pn)}::text[]) AS u(lid, pn)
        ON CONFLICT (org_id, phone_id, lid) DO UPDATE SET pn = EXCLUDED.pn, updated_at = now()
        WHERE baileys_lids.pn <> EXCLUDED.pn`;
    }
  }

  async saveAnchors(orgId: string, phoneId: string, anchors: readonly HistoryAnchor[]): Promise<void> {
    const valid = anchors.filter((a) => a.key.id && a.key.remoteJid);
    for (const batch of chunks(valid)) {
      await this.prisma.$executeRaw`
        INSERT INTO baileys_history_anchors (org_id, phone_id, chat_id, remote_jid, message_id, from_me, participant, message_at)
        SELECT ${orgId}::uuid, ${phoneId}, u.chat_id, u.remote_jid, u.message_id, u.from_me, u.participant, to_timestamp(u.ms / 1000.0)
        FROM unnest(
          ${batch.map((a) => a.chat_id)}::text[], ${batch.map((a) => a.key.remoteJid as string)}::text[], ${batch.map((a) => a.key.id as string)}::text[],
          ${batch.map((a) => !!a.key.fromMe)}::boolean[], ${batch.map((a) => a.key.participant ?? null)}::text[], ${batch.map((a) => a.ms)}::float8[]
        ) AS u(chat_id, remote_jid, message_id, from_me, participant, ms)
        ON CONFLICT (org_id, phone_id, chat_id) DO UPDATE SET
          remote_jid = EXCLUDED.remote_jid, message_id = EXCLUDED.message_id, from_me = EXCLUDED.from_me,
          participant = EXCLUDED.participant, message_at = EXCLUDED.message_at, updated_at = now()
        WHERE EXCLUDED.message_at < baileys_history_anchors.message_at`;
    }
  }

  async clear(orgId: string, phoneId: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.baileysLid.deleteMany({ where: { org_id: orgId, phone_id: phoneId } }),
      this.prisma.baileysHistoryAnchor.deleteMany({ where: { org_id: orgId, phone_id: phoneId } }),
    ]);
  }
}
