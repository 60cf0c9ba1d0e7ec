import type { Redis } from 'ioredis';
import type { Job } from 'bullmq';
import type { PhoneQueueKeys } from '../queues/keys';
import { LuaScript } from '../queues/lua-script';
import type { SendJobData } from '../queues/send-job';

/** One job's turn in its chat: `behindPutBack` lists the jobs of the chat before it that went back to the queue. */
export interface ChatTurn {
  readonly behindPutBack: string[];
  /** The job is over here: sent, failed, retried later, or put back (`putBack`: its chat's later jobs wait for it). */
  done(putBack: boolean): void;
}

interface Entry {
  seq: number;
  jobId: string;
  over: Promise<boolean>;
  end: (putBack: boolean) => void;
  /** A job that went back to the queue: its chat's later jobs must not pass it until it is taken again or gone. */
  away: boolean;
  /** Its turn came: it is under way. */
  started: boolean;
}

/**
 * Per-chat turns among one phone's jobs in flight in this process (a Cloud API phone with several
 * sends at once, served by this process alone: the phone's lease). A job waits until every job of its
 * chat numbered before it (the phone's sequence, `seq`: queue order) is over here, so two messages to
 * one chat are never in flight together and go in queue order; jobs of other chats pass. BullMQ hands
 * jobs over in queue order; the turn is taken in `seq` order anyway, after a yield that lets the jobs
 * handed over together all register, and never while another job of the chat is under way (two
 * requests queued at the same moment may reach BullMQ in the other order than their numbers). A job
 * that went back to the queue (throttled, disconnected) stays in its chat's line as `away` until it is
 * taken again: a later job of its chat taken meanwhile learns it in `behindPutBack` and goes back too,
 * unsent, unless the queue no longer holds it (`forget`). Jobs put back together are taken again in
 * `seq` order (putBackInOrder).
 */
export class ChatTurns {
  private readonly chats = new Map<string, Entry[]>();

  async take(chatId: string, seq: number, jobId: string): Promise<ChatTurn> {
    let end!: (putBack: boolean) => void;
    const over = new Promise<boolean>((resolve) => (end = resolve));
    const entry: Entry = { seq, jobId, over, end, away: false, started: false };
    const line = this.line(chatId).filter((e) => e.jobId !== jobId); // taken again: no longer away
    this.chats.set(chatId, line);
    this.insert(line, entry);
    // jobs BullMQ handed over at about the same time are all in line before the turns are judged
    await new Promise((resolve) => setImmediate(resolve));
    // until none before it is in line and none of its chat is under way (two queued at once may reach BullMQ
    // in the other order than their numbers): judged and taken in one step, so one job of a chat starts at a time
    for (;;) {
      const blocking = this.line(chatId).filter((e) => e !== entry && !e.away && (e.seq < seq || e.started));
      if (blocking.length === 0) break;
      await Promise.all(blocking.map((e) => e.over));
    }
    entry.started = true;
    const behindPutBack = this.line(chatId)
      .filter((e) => e.away && e.seq < seq)
      .map((e) => e.jobId);
    let finished = false;
    return {
      behindPutBack,
      done: (putBack: boolean) => {
        if (finished) return;
        finished = true;
        const now = this.line(chatId).filter((e) => e !== entry);
        if (putBack) this.insert(now, { seq, jobId, over: Promise.resolve(true), end: () => undefined, away: true, started: false });
        if (now.length) this.chats.set(chatId, now);
        else this.chats.delete(chatId);
        end(putBack);
      },
    };
  }

  /** Jobs that went back from here but are no longer queued (purged, removed): their chats' later jobs pass. */
  forget(chatId: string, jobIds: string[]): void {
    const line = this.line(chatId).filter((e) => !(e.away && jobIds.includes(e.jobId)));
    if (line.length) this.chats.set(chatId, line);
    else this.chats.delete(chatId);
  }

  private line(chatId: string): Entry[] {
    return this.chats.get(chatId) ?? [];
  }

  private insert(line: Entry[], entry: Entry): void {
    const at = line.findIndex((e) => e.seq > entry.seq);
    line.splice(at < 0 ? line.length : at, 0, entry);
  }

  /** Chats with a job in flight, waiting or away (for tests). */
  get size(): number {
    return this.chats.size;
  }
}

/**
 * BullMQ puts a job that went back (RateLimitError) at the head of its priority with the same score as
 * every other job put back (priority × 2^32), the ties in the order of their ids, not the queue's. With
 * several in flight, two jobs of one chat may go back together: each is given the score of its place in
 * the queue instead, `seq` below the first queued job's (every job has priority 1, whose queued scores
 * are 2^32 + BullMQ's counter; nothing else is scored under 2^32), so they are taken again in order,
 * before everything queued after them. XX: a job already taken again is left alone.
 */
const IN_ORDER = new LuaScript(`return redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])`);
const PRIORITY_SPAN = 0x100000000;

export async function putBackInOrder(redis: Redis, keys: PhoneQueueKeys, job: Job<SendJobData>): Promise<void> {
  const priority = job.opts.priority ?? 1;
  if (priority < 1) return; // in the wait list, not scored
  const score = (priority - 1) * PRIORITY_SPAN + Math.min(Math.max(1, job.data.seq), PRIORITY_SPAN - 1);
  await IN_ORDER.run(redis, [keys.unsent.prioritized], [score, job.id as string]);
}

type MoveBack = (job: Job<SendJobData>, token: string) => Promise<number>;

/**
 * Makes a worker put jobs back in queue order (above). BullMQ's `moveLimitedBackToWait` is private in its
 * types: wrapped on the instance, and a BullMQ without it is refused here rather than silently reordering.
 */
/** Which of `jobIds` the phone's queue still holds, taken (active) or to be taken again (prioritized). */
const STILL_QUEUED = new LuaScript(`
local out = {}
for i, id in ipairs(ARGV) do
  if redis.call('ZSCORE', KEYS[1], id) or redis.call('LPOS', KEYS[2], id) then out[#out + 1] = id end
end
return out
`);

export async function stillQueued(redis: Redis, keys: PhoneQueueKeys, jobIds: string[]): Promise<string[]> {
  if (jobIds.length === 0) return [];
  return STILL_QUEUED.run<string[]>(redis, [keys.unsent.prioritized, keys.active], jobIds);
}

export function keepPutBackOrder(worker: object, redis: Redis, keys: PhoneQueueKeys): void {
  const w = worker as { moveLimitedBackToWait?: MoveBack };
  const original = w.moveLimitedBackToWait;
  if (typeof original !== 'function') throw new Error("BullMQ's Worker has no moveLimitedBackToWait: put-back order cannot be kept");
  w.moveLimitedBackToWait = async (job, token) => {
    const ttl = await original.call(worker, job, token);
    await putBackInOrder(redis, keys, job);
    return ttl;
  };
}
