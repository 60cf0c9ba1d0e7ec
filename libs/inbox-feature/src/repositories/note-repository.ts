import type { Prisma, PrismaClient } from '@mapi/db';

/** A stored note, as `inbox_notes` holds it. */
export interface NoteRow {
  note_id: string;
  org_id: string;
  phone_id: string;
  chat_id: string;
  org_phone: string;
  body: string;
  quoted_message_id: string | null;
  performed_by: string | null;
  timestamp: Date;
  updated_at: Date;
  request_hash: string | null;
}

export interface NoteFilter {
  chat_id?: string;
  /** ISO bounds, inclusive. */
  start_time?: string;
  end_time?: string;
}

type Db = PrismaClient | Prisma.TransactionClient;

const inReach = (phoneIds: string[] | null) => (phoneIds ? { phone_id: { in: phoneIds } } : {});

/**
 * Private notes of the inbox service. The organization is part of every signature and every query;
 * `phoneIds` (the phones in reach, null for all) narrows to the notes of those phones.
 */
export class NoteRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** A page, newest first (timestamp, then note_id). */
  list(orgId: string, phoneIds: string[] | null, filter: NoteFilter, offset: number, limit: number): Promise<NoteRow[]> {
    if (phoneIds && !phoneIds.length) return Promise.resolve([]);
    const time =
      filter.start_time || filter.end_time
        ? {
            timestamp: {
              ...(filter.start_time ? { gte: new Date(filter.start_time) } : {}),
              ...(filter.end_time ? { lte: new Date(filter.end_time) } : {}),
            },
          }
        : {};
    return this.prisma.inboxNote.findMany({
      where: { org_id: orgId, ...inReach(phoneIds), ...(filter.chat_id ? { chat_id: filter.chat_id } : {}), ...time },
      orderBy: [{ timestamp: 'desc' }, { note_id: 'desc' }],
      skip: offset,
      take: limit,
    });
  }

  find(orgId: string, noteId: string, phoneIds: string[] | null): Promise<NoteRow | null> {
    if (phoneIds && !phoneIds.length) return Promise.resolve(null);
    return this.prisma.inboxNote.findFirst({ where: { org_id: orgId, note_id: noteId, ...inReach(phoneIds) } });
  }

  /** The organization's note with this id whatever its phone (an Idempotency-Key's earlier create). */
  findMade(orgId: string, noteId: string): Promise<NoteRow | null> {
    return this.prisma.inboxNote.findFirst({ where: { org_id: orgId, note_id: noteId } });
  }

  insert(
    tx: Db,
    orgId: string,
    note: Omit<NoteRow, 'org_id' | 'updated_at' | 'request_hash'> & { request_hash?: string | null },
  ): Promise<NoteRow> {
    return tx.inboxNote.create({ data: { ...note, org_id: orgId, updated_at: note.timestamp } });
  }

  transaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }
}
