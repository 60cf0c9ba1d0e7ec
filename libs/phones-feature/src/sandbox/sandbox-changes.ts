import { createHash } from 'node:crypto';
import { Prisma, type PrismaClient } from '@mapi/db';
import type { MessageChange } from '../connector/phone-connector';

/** A change as stored: what `messages.update` reports, without the message's key. */
export type SandboxChangeBody = Pick<MessageChange, 'edit' | 'deleted' | 'reaction' | 'pin'>;
export interface SandboxChangeRow {
  id: bigint;
  chat_id: string;
  unique_id: string;
  from_me: boolean;
  change: SandboxChangeBody;
}
type MessageRef = { phone_id: string; chat_id: string; unique_id: string; from_me: boolean };

/**
 * The network's id of a reaction: the same sender reacting to the same message with the same emoji
 * gets the same id, so a repeated reaction (a retried command) is one reaction, not a new one.
 */
export const sandboxReactionId = (phoneId: string, uniqueId: string, sender: string, reaction: string): string =>
  `3EB0${createHash('sha256').update(`${phoneId}\u0000${uniqueId}\u0000${sender}\u0000${reaction}`).digest('hex').slice(0, 16).toUpperCase()}`;

/**
 * Changes to the messages of the sandbox network (edits, deletions for everyone, reactions, pins), made
 * by a phone itself or by another person. Each is written to the message's row (where the network
 * keeps it) and to sandbox_changes in one statement; the phone's connector hands the changes on as
 * `messages.update`, then deletes them. A change that changes nothing (the same body, a message
 * already deleted) is not recorded: a retried action does not act twice.
 */
export class SandboxChanges {
  constructor(private readonly prisma: PrismaClient) {}

  /** Edits the message's text; false when it already reads so. */
  edit(m: MessageRef, body: string): Promise<boolean> {
    return this.changeIf(m, Prisma.sql`is_deleted = false AND body IS DISTINCT FROM ${body}`, Prisma.sql`body = ${body}`, {
      edit: { body },
    });
  }

  /** Deletes the message for everyone; false when it was deleted already. */
  delete(m: MessageRef): Promise<boolean> {
    return this.changeIf(m, Prisma.sql`is_deleted = false`, Prisma.sql`is_deleted = true`, { deleted: true });
  }

  /**
   * Changes the message's row where `when` holds and records the change, in one statement (one round
   * trip where a transaction takes four: under a steady stream of changes the control requests would queue).
   */
  private async changeIf(m: MessageRef, when: Prisma.Sql, set: Prisma.Sql, change: SandboxChangeBody): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<{ id: bigint }[]>`
      WITH m AS (UPDATE sandbox_messages SET ${set} WHERE phone_id = ${m.phone_id} AND unique_id = ${m.unique_id} AND ${when} RETURNING phone_id)
      INSERT INTO sandbox_changes (phone_id, chat_id, unique_id, from_me, change)
      SELECT phone_id, ${m.chat_id}, ${m.unique_id}, ${m.from_me}, ${JSON.stringify(change)}::jsonb FROM m
      RETURNING id`;
    return rows.length > 0;
  }

  /** `sender`'s reaction to the message ('' takes it back); returns the reaction's id. */
  async react(m: MessageRef, sender: string, reaction: string): Promise<string> {
    const reaction_id = sandboxReactionId(m.phone_id, m.unique_id, sender, reaction);
    await this.record(this.prisma, m, { reaction: { reaction_id, sender_phone: sender, reaction, timestamp: new Date().toISOString() } });
    return reaction_id;
  }

  /** Pins the message for `seconds` (a pin again renews it), or unpins it. */
  async pin(m: MessageRef, pinned: boolean, seconds: number, now = new Date()): Promise<void> {
    const expires_at = pinned ? new Date(now.getTime() + seconds * 1000).toISOString() : null;
    await this.record(this.prisma, m, { pin: { pinned, at: now.toISOString(), expires_at } });
  }

  /** One statement, no ORM: the query compiler's plan per call is a real share of the phones process's CPU under a stream of changes. */
  private async record(tx: PrismaClient, m: MessageRef, change: SandboxChangeBody): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO sandbox_changes (phone_id, chat_id, unique_id, from_me, change)
      VALUES (${m.phone_id}, ${m.chat_id}, ${m.unique_id}, ${m.from_me}, ${JSON.stringify(change)}::jsonb)`;
  }

  /** The phone's changes still to report, oldest first (the (phone_id, id) index's order), but those in `except` (handed on already). */
  async pending(phoneId: string, limit: number, except: bigint[] = []): Promise<SandboxChangeRow[]> {
    return this.prisma.$queryRaw<SandboxChangeRow[]>`
      SELECT id, chat_id, unique_id, from_me, change FROM sandbox_changes
      WHERE phone_id = ${phoneId} AND id <> ALL(${except}::bigint[]) ORDER BY phone_id, id LIMIT ${limit}`;
  }

  /**
   * Forgets what was handed on. Without waiting for the disk (set_config(…, true) holds for this
   * statement's own transaction): a deletion lost to a Postgres crash only hands the changes on
   * again, and ingestion is idempotent; the sync that follows does not wait for an fsync.
   */
  async markReported(ids: bigint[]): Promise<void> {
    if (!ids.length) return;
    await this.prisma.$executeRaw`
      WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
      DELETE FROM sandbox_changes WHERE id = ANY(${ids}::bigint[]) AND (SELECT true FROM async_commit)`;
  }
}
