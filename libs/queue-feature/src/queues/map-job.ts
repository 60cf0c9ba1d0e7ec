import type { Job } from 'bullmq';
import type { QueueJob } from '@mapi/contracts';
import type { SendJobData, SendJobResult } from './send-job';

/** BullMQ's state names → the caller's: the sorted set of prioritized jobs is "waiting" for them. */
export function publicStatus(state: string): string {
  return state === 'prioritized' || state === 'paused' || state === 'wait' || state === 'waiting-children' ? 'waiting' : state;
}

/** A job as GET /queue/jobs shows it (the one place jobs become public objects). */
export function mapJob(job: Job<SendJobData, SendJobResult | undefined>, state: string): QueueJob {
  const result = job.returnvalue ?? null;
  const { chat_id, body, broadcast_id, content } = job.data;
  return {
    id: job.id as string,
    status: publicStatus(state),
    data: {
      chat_id,
      body,
      broadcast_id,
      // who sent it (as the hosted job data's performed_by): a member's email, a token's id; null: not known
      performed_by: job.data.performed_by ?? null,
      ...(content.media ? { media: { ...content.media, filedata: undefined } } : {}),
      ...(content.poll ? { poll: content.poll } : {}),
      ...(content.reply_to ? { reply_to: content.reply_to } : {}),
    },
    attemptsMade: job.attemptsMade ?? 0,
    attemptsStarted: job.attemptsStarted ?? 0,
    addedTimestamp: job.timestamp ?? null,
    processedTimestamp: job.processedOn ?? null,
    finishedTimestamp: job.finishedOn ?? null,
    message_id: result?.message_id ?? null,
    unique_id: result?.unique_id ?? null,
    broadcast_id: broadcast_id ?? null,
    phone_id: job.data.phone_id,
    failed_reason: job.failedReason || null,
    stacktrace: job.stacktrace ?? [],
  };
}
