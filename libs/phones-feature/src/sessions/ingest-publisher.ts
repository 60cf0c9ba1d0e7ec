import { createHash } from 'node:crypto';
import { ingestKindSubject, type IngestEvent } from '@mapi/contracts';
import { ingestSubject, publishDurable } from '@mapi/events';
import type { NatsConnection } from 'nats';

/**
 * Hands connector events to the chats store through JetStream. Resolves once the stream has stored
 * the event; the id (a hash of the content) lets JetStream drop an identical re-publication.
 */
export class IngestPublisher {
  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {}

  async publish(event: IngestEvent): Promise<void> {
    const body = JSON.stringify(event);
    const id = createHash('sha256').update(body).digest('hex').slice(0, 32);
    await publishDurable(this.nc.jetstream(), ingestSubject(this.namespace, ingestKindSubject(event.kind)), event, id);
  }
}
