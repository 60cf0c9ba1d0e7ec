import type { ImportJob, Step } from '../import-job';
import type { OwnerItem } from '../owners';
import { readPages } from '../pages';
import { loadPhones, targetPhone } from './phones-step';
import { translateKeys } from './setup-steps';

type Row = Record<string, unknown>;
interface ChatMark {
  chat_id: string;
  latest_ms: number;
}

/** One owner batch per page (MAX_IMPORT_BATCH): a lane holds less, and larger pages import no faster (docs/benchmarks.md, "Import"). */
const MESSAGES_PAGE = 500;
const CHATS_PAGE = 500;

const epochMs = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** Our phones that hold a source chat (its copies on the source's phones), within the run's phones. */
function chatPhones(job: ImportJob, chat: Row): { phone_id: string; org_phone: string }[] {
  const numbers = new Set<string>([
    ...((chat.chat_org_phones as string[]) ?? []),
    ...(typeof chat.org_phone === 'string' ? [chat.org_phone] : []),
  ]);
  const out: { phone_id: string; org_phone: string }[] = [];
  for (const n of numbers) {
    const phone = targetPhone(job, n);
    if (phone && !out.some((o) => o.phone_id === phone)) out.push({ phone_id: phone, org_phone: n });
  }
  return out;
}

/**
 * Chats: each chat of the source with its labels, custom property values and assignee, on each of our
 * phones that holds it. The chats whose newest message moved since the last run of this source are
 * kept for the messages step.
 */
export const chatsStep: Step = {
  name: 'chats',
  run: async (job) => {
    await loadPhones(job);
    await Promise.all([job.idMapOf('labels'), job.idMapOf('custom_properties')]);
    const labelNames = await sourceLabelNames(job);
    await readPages<Row>(job.parts.source, '/chats', 'chats', CHATS_PAGE, async (chats) => {
      job.report.read('chats', chats.length);
      const items: OwnerItem[] = [];
      for (const chat of chats) {
        const phones = chatPhones(job, chat);
        if (!phones.length) continue; // a chat only of phones this run does not bring
        const labels = Object.keys((chat.label_ids as Record<string, boolean>) ?? {})
          .map((l) => ({ label_id: job.targetOf('labels', l), name: labelNames.get(l) }))
          .filter((l): l is { label_id: string; name: string } => !!l.label_id && !!l.name);
        items.push({
          source_id: String(chat.chat_id),
          phones,
          chat,
          labels,
          custom_properties: translateKeys(job, 'custom_properties', chat.custom_properties) ?? {},
          assigned_to: (chat.assigned_to as string | null) ?? null,
        });
      }
      await job.apply('chats', items, false);
    });
  },
};

/** The source's label names by id (its GET /labels, else the --rows labels): chats carry only ids. */
async function sourceLabelNames(job: ImportJob): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const add = (rows: Row[]) => rows.forEach((l) => typeof l.name === 'string' && names.set(String(l.label_id ?? l.id), l.name));
  const answered = await readPages<Row>(job.parts.source, '/labels', 'labels', 2000, async (rows) => add(rows));
  if (answered === null) add(job.rows.tbl_org_labels ?? []);
  return names;
}

/**
 * Messages, chat by chat, newest first: a chat whose newest message is the one the last run of this
 * source saw is not read at all; in another, pages are read until one reaches what was brought before
 * (or `--since`). A chat cut off mid-history resumes at its offset. The mark moves only once a chat's
 * pages are all written, so a run killed at any point brings the rest on the next start.
 */
export const messagesStep: Step = {
  name: 'messages',
  run: async (job) => {
    await loadPhones(job);
    const marks = await job.parts.idMap.marks(job.orgId, job.sourceKey);
    const since = job.options.since ? Date.parse(job.options.since) : null;
    const todo: ChatMark[] = [];
    let total = 0;
    await readPages<Row>(job.parts.source, '/chats', 'chats', CHATS_PAGE, async (chats) => {
      for (const chat of chats) {
        total++;
        if (!chatPhones(job, chat).length) continue;
        const latest = epochMs(chat.latest_message_timestamp ?? (chat.latest_message as Row | null)?.timestamp);
        if (!Number.isFinite(latest)) continue; // no messages
        if (marks.get(String(chat.chat_id)) === latest) continue;
        todo.push({ chat_id: String(chat.chat_id), latest_ms: latest });
      }
    });
    job.checkpoint.progress.chats_total = todo.length;
    job.checkpoint.progress.chats_done = 0;
    // As many chats at once as requests may be in flight to the source (each chat reads one page at a time).
    const lanes = Math.max(1, Math.min(job.options.concurrency, todo.length));
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < todo.length) {
          const chat = todo[next++];
          await importChatHistory(job, chat, marks.get(chat.chat_id) ?? null, since);
          job.checkpoint.progress.chats_done++;
        }
      }),
    );
    void total;
  },
};

async function importChatHistory(job: ImportJob, chat: ChatMark, mark: number | null, since: number | null): Promise<void> {
  const floor = Math.max(mark ?? -Infinity, since ?? -Infinity);
  const startAt = job.checkpoint.partial[chat.chat_id] ?? 0;
  let offset = startAt;
  for (;;) {
    const page = await job.parts.source.get<{ messages?: Row[]; count?: number }>(`/chats/${encodeURIComponent(chat.chat_id)}/messages`, {
      offset,
      limit: MESSAGES_PAGE,
    });
    const messages = Array.isArray(page?.messages) ? page.messages : [];
    const fresh = messages.filter((m) => !(epochMs(m.timestamp) < floor));
    job.report.read('messages', fresh.length);
    await job.parts.media?.copy(job, fresh);
    const items: OwnerItem[] = [];
    for (const m of fresh) {
      const phone = targetPhone(job, m.org_phone as string);
      if (phone) items.push({ source_id: String(m.message_id), phone_id: phone, message: m });
    }
    await job.apply('messages', items, false);
    offset += messages.length;
    const reachedFloor = fresh.length < messages.length;
    if (messages.length < MESSAGES_PAGE || reachedFloor) break;
    job.checkpoint.partial[chat.chat_id] = offset;
    await job.save(false);
  }
  delete job.checkpoint.partial[chat.chat_id];
  if (!job.dryRun) await job.parts.idMap.mark(job.orgId, job.sourceKey, chat.chat_id, chat.latest_ms);
  await job.save(false);
}

/** Reactions of the messages brought, on our phone of the reacting copy. */
export const reactionsStep: Step = {
  name: 'reactions',
  run: async (job) => {
    await loadPhones(job);
    const since = job.options.since ?? undefined;
    await readPages<Row>(
      job.parts.source,
      '/reactions',
      'reactions',
      2000,
      async (rows) => {
        job.report.read('reactions', rows.length);
        const items: OwnerItem[] = [];
        for (const r of rows) {
          const phone = targetPhone(job, r.org_phone as string);
          if (phone) items.push({ ...r, source_id: `${String(r.message_id)}|${String(r.sender_phone ?? r.sender_id)}`, phone_id: phone });
        }
        await job.apply('reactions', items, false);
      },
      { query: { start_time: since } },
    );
  },
};
