import {
  ImportReactionItemSchema,
  type ImportBatchResponse,
  type ImportReactionItem,
  type ImportReactionsRequest,
  type PhoneDirectory,
} from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { applyChanges, type ChangeIn } from '../../ingest/apply-changes';
import type { OutEvent } from '../../ingest/out-event';
import { answer, failed, notOurPhone, phonesOfOrg, validateItems, writeInHalves } from '../../imports/import-items';

type ReactionIn = Extract<ChangeIn, { kind: 'reaction' }>;
type Tx = Prisma.TransactionClient;

/** The message's key parts (spec 2.1 ids are `<from_me>_<chat_id>_<unique_id>`), from its id or from msg_id. */
function keyParts(r: ImportReactionItem): { from_me: boolean; unique_id: string } | null {
  for (const fromMe of [true, false]) {
    const prefix = `${fromMe}_${r.chat_id}_`;
    if (r.message_id.startsWith(prefix) && r.message_id.length > prefix.length)
      return { from_me: fromMe, unique_id: r.message_id.slice(prefix.length) };
  }
  return r.msg_id && `${r.msg_id.from_me}_${r.chat_id}_${r.msg_id.id}` === r.message_id
    ? { from_me: r.msg_id.from_me, unique_id: r.msg_id.id }
    : null;
}

/** The stored copies of the organization among the given (phone, message) keys. */
async function storedMessages(tx: Tx, orgId: string, keys: { phone_id: string; message_id: string }[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await tx.$queryRawUnsafe<{ phone_id: string; message_id: string }[]>(
    `SELECT m.phone_id, m.message_id FROM messages m
     JOIN (SELECT DISTINCT phone_id, message_id FROM jsonb_to_recordset($2::jsonb) AS k(phone_id text, message_id text)) k
       ON m.phone_id = k.phone_id AND m.message_id = k.message_id
     WHERE m.org_id = $1::uuid`,
    orgId,
    JSON.stringify(keys),
  );
  return new Set(rows.map((r) => `${r.phone_id}\u0000${r.message_id}`));
}

/**
 * chats.v1.import.reactions (internal, the importer): a batch of a source organization's standing
 * reactions, each on the target phone's copy of a message imported before. Applied exactly as
 * ingestion applies the network's reactions (applyChanges: a sender's reaction replaces their older
 * one, has_reaction follows), so a reaction that arrives both ways is one row. The events
 * applyChanges builds are dropped (a backfill): created / updated answer what they would have been.
 */
export class ImportReactions {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly directory: PhoneDirectory,
  ) {}

  execute({ ctx, body }: ImportReactionsRequest): Promise<ImportBatchResponse> {
    return writeInHalves(body.items, (items) => this.write(ctx, items));
  }

  private async write(ctx: ImportReactionsRequest['ctx'], items: readonly unknown[]): Promise<ImportBatchResponse> {
    const orgId = ctx.org_id;
    const { valid, results } = validateItems(items, ImportReactionItemSchema);
    const phones = await phonesOfOrg(
      this.directory,
      orgId,
      valid.map((v) => v.item.phone_id),
    );
    const changes: { index: number; source_id: string; target_id: string; change: ReactionIn }[] = [];
    for (const { index, item } of valid) {
      const parts = keyParts(item);
      const sender = item.sender_phone ?? item.sender_id;
      if (!phones.has(item.phone_id)) results[index] = failed(item.source_id, notOurPhone(item.phone_id));
      else if (!parts) results[index] = failed(item.source_id, 'message_id: not of the form <from_me>_<chat_id>_<unique_id>');
      else if (!sender) results[index] = failed(item.source_id, 'sender_phone: required');
      else {
        const reaction = {
          reaction_id: item.reaction_id ?? item.unique_id ?? item.source_id,
          sender_phone: sender,
          reaction: item.reaction ?? '',
          timestamp: item.timestamp,
        };
        const change: ReactionIn = {
          kind: 'reaction',
          org_id: orgId,
          phone_id: item.phone_id,
          org_phone: phones.get(item.phone_id) ?? '',
          chat_id: item.chat_id,
          ...parts,
          reaction,
        };
        changes.push({ index, source_id: item.source_id, target_id: reaction.reaction_id, change });
      }
    }
    if (changes.length) {
      await this.prisma.$transaction(async (tx) => {
        const held = await storedMessages(
          tx,
          orgId,
          changes.map((c) => ({
            phone_id: c.change.phone_id,
            message_id: `${c.change.from_me}_${c.change.chat_id}_${c.change.unique_id}`,
          })),
        );
        const applied = changes.filter((c) => {
          const ok = held.has(`${c.change.phone_id}\u0000${c.change.from_me}_${c.change.chat_id}_${c.change.unique_id}`);
          if (!ok) results[c.index] = failed(c.source_id, `message not found on phone ${c.change.phone_id} (import the message first)`);
          return ok;
        });
        const out: OutEvent[] = []; // not written: a backfill
        await applyChanges(
          tx,
          applied.map((c) => c.change),
          out,
        );
        // applyChanges emits at most one reaction event per change, in order: the events say which changed what
        let next = 0;
        for (const c of applied) {
          const e = out[next];
          const data = e?.data as
            { phone_id?: string; sender_phone?: string; reaction_id?: string; reaction?: string; message_id?: string } | undefined;
          const mine =
            e &&
            e.phone_id === c.change.phone_id &&
            data?.sender_phone === c.change.reaction.sender_phone &&
            data?.reaction_id === c.change.reaction.reaction_id &&
            data?.reaction === c.change.reaction.reaction &&
            data?.message_id === `${c.change.from_me}_${c.change.chat_id}_${c.change.unique_id}`;
          if (mine) next++;
          results[c.index] = {
            source_id: c.source_id,
            target_id: c.target_id,
            outcome: mine ? (e.type === 'reaction.created' ? 'created' : 'updated') : 'skipped',
          };
        }
      });
    }
    return answer(results, items);
  }
}
