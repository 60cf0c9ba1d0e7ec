import { RateLimitError, UnrecoverableError, type Job, type Queue } from 'bullmq';
import type { SessionAnswer, SessionCommand } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import { CLAIM, RELEASE } from '../queues/fence-scripts';
import { messageIdOf, type SendJobData, type SendJobResult } from '../queues/send-job';
import type { SendQueues } from '../queues/send-queues';
import { stillQueued, type ChatTurns } from './chat-turns';

/** The phones' sessions as the worker needs them (SessionCommands from @mapi/events). */
export interface SessionPort {
  send(phoneId: string, cmd: SessionCommand): Promise<SessionAnswer | 'no-session'>;
}

export interface SendProcessorOptions {
  jitterMs: number;
  phoneRetryMs: number;
  /** First pause of a phone the network throttles (Meta's rate limits); doubles while it goes on, up to THROTTLE_MAX_PAUSE_MS. */
  throttleBackoffMs?: number;
  maxWaitMs: number;
  holdAfterSendMs: number;
  random?: () => number;
}

export const PURGED_REASON = 'purged before submission';
/** The longest pause of a throttled phone between two tries (Meta's WABA limit, 80007, lifts within the hour). */
export const THROTTLE_MAX_PAUSE_MS = 60_000;
// Unref'd: a pause inside a job must not keep a stopping process alive.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/**
 * Submits one job through the phone's session. Order of events: random jitter (pacing), claim
 * (the purge fence: a purged job stops here and is never sent), submit with the job id as
 * `sent_message_id` (a retried job that had reached the network is not sent again), result.
 * A disconnected or unreachable phone pauses the phone's queue and puts the job back without using
 * an attempt; so does a phone the network throttles (its pause doubling while it lasts); other
 * failures retry with exponential backoff. A phone with several sends in flight (a Cloud API number)
 * passes its `turns`: a job first waits for its chat's earlier jobs here (chat-turns.ts), and goes back
 * unsent behind one of them that went back.
 */
export class SendProcessor {
  /** Throttled rounds in a row, per phone, and when the last round's pause ends (reset by a send that goes). */
  private readonly throttled = new Map<string, { inARow: number; until: number }>();

  constructor(
    private readonly queues: SendQueues,
    private readonly sessions: SessionPort,
    private readonly options: SendProcessorOptions,
    private readonly logger: Logger,
  ) {}

  /** `pace.jitter` false: no random pause (a Cloud API number's pace, phone-pace.ts); `pace.turns`: several in flight, one per chat. */
  async process(
    job: Job<SendJobData>,
    queue: Queue<SendJobData> = this.queues.queue(job.data.phone_id),
    pace: { jitter: boolean; turns?: ChatTurns } = { jitter: true },
  ): Promise<SendJobResult> {
    if (!pace.turns) return this.submit(job, queue, pace.jitter);
    const { chat_id: chatId, phone_id: phoneId } = job.data;
    const turn = await pace.turns.take(chatId, job.data.seq, job.id as string);
    let putBack = true;
    try {
      if (turn.behindPutBack.length) {
        // an earlier job of its chat went back to the queue (the phone is paused): this one goes back behind it, unsent
        const queued = await stillQueued(this.queues.redis, this.queues.keys(phoneId), turn.behindPutBack);
        pace.turns.forget(
          chatId,
          turn.behindPutBack.filter((id) => !queued.includes(id)),
        );
        if (queued.length) throw new RateLimitError();
      }
      const result = await this.submit(job, queue, pace.jitter);
      putBack = false;
      return result;
    } catch (err) {
      putBack = err instanceof RateLimitError;
      throw err;
    } finally {
      turn.done(putBack);
    }
  }

  private async submit(job: Job<SendJobData>, queue: Queue<SendJobData>, withJitter: boolean): Promise<SendJobResult> {
    const { phone_id: phoneId, chat_id: chatId } = job.data;
    const id = job.id as string;
    const jitter = withJitter ? Math.floor((this.options.random ?? Math.random)() * this.options.jitterMs) : 0;
    if (jitter > 0) await sleep(jitter);

    const k = this.queues.keys(phoneId);
    const claim = await CLAIM.run<number>(
      this.queues.redis,
      [k.job(id), k.fenceAll, k.fenceIds, k.fenceBroadcasts],
      [id, job.data.seq, job.data.broadcast_id ?? '', Date.now()],
    );
    if (claim !== 1) throw new UnrecoverableError(claim === 0 ? PURGED_REASON : 'the job was removed');

    // performed_by (who sent it) rides along to the stored message; a job recorded before it was kept has none
    const performedBy = job.data.performed_by ? { performed_by: job.data.performed_by } : {};
    const answer = await this.sessions.send(phoneId, {
      cmd: 'send',
      chat_id: chatId,
      content: job.data.content,
      sent_message_id: id,
      ...performedBy,
    });
    if (answer === 'no-session' || (!answer.ok && (answer.reason === 'disconnected' || answer.reason === 'unavailable'))) {
      // 'disconnected' is a definite "not sent": the job is unsubmitted again (purgeable). No answer
      // at all, or a session whose database is away ('unavailable'), may hide a send that happened, so
      // the claim stays (the retry carries the same sent_message_id). None of them uses an attempt:
      // the phone is waited for, up to maxWaitMs, as when it is disconnected.
      if (answer !== 'no-session' && answer.reason === 'disconnected') await RELEASE.run(this.queues.redis, [k.job(id)], []);
      if (Date.now() - job.timestamp > this.options.maxWaitMs)
        throw new UnrecoverableError('the phone stayed disconnected or unreachable too long');
      this.logger.info(
        { job_id: id, phone_id: phoneId, reason: answer === 'no-session' ? 'unreachable' : answer.reason },
        'phone not available; queue paused',
      );
      await queue.rateLimit(this.options.phoneRetryMs);
      throw new RateLimitError();
    }
    if (!answer.ok && answer.reason === 'throttled') return this.throttle(job, queue, answer.message);
    // refused for good by the network (a Cloud API phone outside the 24-hour window): failed at once, with the reason
    if (!answer.ok && answer.reason === 'refused') throw new UnrecoverableError(answer.message);
    if (!answer.ok) throw new Error(`the phone's session failed: ${answer.message}`);
    if (!answer.sent) throw new Error("the phone's session answered without the sent message");
    this.throttled.delete(phoneId);
    if (this.options.holdAfterSendMs > 0) await sleep(this.options.holdAfterSendMs);
    const result = {
      unique_id: answer.sent.unique_id,
      message_id: messageIdOf(chatId, answer.sent.unique_id),
      timestamp: answer.sent.timestamp,
      duplicate: answer.sent.duplicate,
    };
    this.logger.info(
      { job_id: id, phone_id: phoneId, unique_id: result.unique_id, duplicate: result.duplicate, attempt: job.attemptsMade + 1 },
      'message sent',
    );
    return result;
  }

  /**
   * The network took nothing and asks the phone to slow down (Meta's 130429, 131056, 80007, …): the job
   * is unsubmitted again (purgeable) and goes back to the head of the line, without using an attempt;
   * the phone's whole queue pauses (its later jobs, some to the same chat, must not overtake it), from
   * `throttleBackoffMs` doubling while the throttling lasts. It fails only past `maxWaitMs`, as a
   * disconnected phone's job does.
   */
  private async throttle(job: Job<SendJobData>, queue: Queue<SendJobData>, reason: string): Promise<never> {
    const { phone_id: phoneId } = job.data;
    await RELEASE.run(this.queues.redis, [this.queues.keys(phoneId).job(job.id as string)], []);
    if (Date.now() - job.timestamp > this.options.maxWaitMs)
      throw new UnrecoverableError(`the network kept throttling the phone: ${reason}`);
    const last = this.throttled.get(phoneId);
    // sends in flight together are throttled together: one round, one pause (the phone is paused already)
    if (last && Date.now() < last.until) throw new RateLimitError();
    const inARow = (last?.inARow ?? 0) + 1;
    const pauseMs = Math.min(THROTTLE_MAX_PAUSE_MS, (this.options.throttleBackoffMs ?? 2_000) * 2 ** Math.min(inARow - 1, 16));
    this.throttled.set(phoneId, { inARow, until: Date.now() + pauseMs });
    this.logger.warn(
      { job_id: job.id, phone_id: phoneId, pause_ms: pauseMs, in_a_row: inARow, reason },
      'phone throttled by the network; queue paused',
    );
    await queue.rateLimit(pauseMs);
    throw new RateLimitError();
  }
}
