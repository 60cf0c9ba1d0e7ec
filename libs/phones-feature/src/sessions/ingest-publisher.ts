import { createHash } from 'node:crypto';
import { ingestKindSubject, type IngestEvent } from '@mapi/contracts';
import { ingestSubject, publishDurable } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { IngestLog } from './ingest-log';

/**
 * Hands connector events to the chats store through JetStream. Resolves once the stream has stored
 * the event; the id (a hash of the content) lets JetStream drop an identical re-publication. With a
 * log, what was published is kept until chats has taken it, to publish again if the stream is lost.
 */
export class IngestPublisher {
  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly log?: IngestLog,
  ) {}

  async publish(event: IngestEvent): Promise<void> {
    const body = JSON.stringify(event);
    const id = createHash('sha256').update(body).digest('hex').slice(0, 32);
    const subject = ingestSubject(this.namespace, ingestKindSubject(event.kind));
    const ack = await publishDurable(this.nc.jetstream(), subject, body, id);
    this.log?.record(id, subject, body, ack.seq);
  }
}
