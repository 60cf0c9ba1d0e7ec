import { updateMessageWithPollUpdate, type WAMessage, type WAMessageKey, type proto } from 'baileys';
import type { MessageChange } from '../connector/phone-connector';
import { isPollCreation, toContactId, toPollResults, type MapContext } from './baileys-mapping';

const KEPT = 1_000;

/**
 * Polls this session knows (their creation message carries the key votes are encrypted with) and
 * their votes so far. The library decrypts a vote only when `getMessage` finds the poll (see
 * `get`); each decrypted vote (`messages.update` with `pollUpdates`) replaces the voter's earlier
 * one, and the whole tally is handed on as the poll's `poll_results`. Kept in memory (the last 1,000
 * polls): after a lease takeover, votes on polls seen only by the previous replica are not decrypted.
 */
export class PollTally {
  private readonly polls = new Map<string, WAMessage>();

  /** Remembers a poll creation message (with the votes a history sync carries); ignores other messages. */
  remember(msg: WAMessage): void {
    if (!msg.key.id || !isPollCreation(msg)) return;
    const known = this.polls.get(msg.key.id);
    this.polls.delete(msg.key.id);
    this.polls.set(msg.key.id, { ...msg, pollUpdates: msg.pollUpdates?.length ? msg.pollUpdates : (known?.pollUpdates ?? []) });
    if (this.polls.size > KEPT) this.polls.delete(this.polls.keys().next().value as string);
  }

  /** The poll creation message, for the library's getMessage. */
  get(id: string): WAMessage | undefined {
    return this.polls.get(id);
  }

  /** Applies decrypted votes to the poll; its tally as a change, or null when the poll is unknown. */
  vote(key: WAMessageKey, updates: readonly proto.IPollUpdate[], ctx: MapContext): MessageChange | null {
    const poll = key.id ? this.polls.get(key.id) : undefined;
    if (!poll || !key.remoteJid) return null;
    for (const u of updates) updateMessageWithPollUpdate(poll, u);
    return this.tally(poll, ctx, key);
  }

  /** The current tally of a poll as a change (e.g. for a history-synced poll with votes). */
  tally(poll: WAMessage, ctx: MapContext, key: WAMessageKey = poll.key): MessageChange {
    return {
      chat_id: toContactId(key.remoteJid, ctx),
      unique_id: key.id as string,
      from_me: !!key.fromMe,
      poll_results: toPollResults(poll, ctx),
    };
  }
}
