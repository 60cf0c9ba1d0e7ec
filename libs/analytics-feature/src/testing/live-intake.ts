import type { PrismaClient } from '@mapi/db';
import { ensureStreams, streamNames } from '@mapi/events';
import { connectNats } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import pino from 'pino';
import { AnalyticsIntake } from '../ingest/analytics-intake';

export interface LiveIntake {
  nc: NatsConnection;
  /** The NATS namespace of this spec's streams. */
  ns: string;
  intake: AnalyticsIntake;
}

/**
 * For an integration spec: `start()` runs the analytics intake on the NATS server at `natsUrl`, on
 * JetStream streams of the namespace `ns` (the spec's own); after the spec the intake stops, the
 * streams are deleted and the connection drained.
 */
export function useLiveIntake(prisma: () => PrismaClient, natsUrl: string, ns: string): { start: () => Promise<LiveIntake> } {
  let live: LiveIntake | undefined;
  afterAll(async () => {
    if (!live) return;
    await live.intake.stop();
    const jsm = await live.nc.jetstreamManager();
    for (const stream of Object.values(streamNames(live.ns))) await jsm.streams.delete(stream).catch(() => undefined);
    await live.nc.drain();
  });
  return {
    async start() {
      const nc = await connectNats(natsUrl, 'analytics-int');
      await ensureStreams(nc, ns);
      const intake = new AnalyticsIntake(nc, ns, prisma(), pino({ level: 'silent' }), 5_000);
      await intake.start();
      live = { nc, ns, intake };
      return live;
    },
  };
}
