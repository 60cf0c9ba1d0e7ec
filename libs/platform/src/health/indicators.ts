import type { NatsConnection } from 'nats';
import type { HealthIndicator } from './health';

export const natsIndicator = (nc: NatsConnection): HealthIndicator => ({
  name: 'nats',
  check: async () => {
    if (nc.isClosed()) throw new Error('connection closed');
    await nc.flush();
  },
});

export const postgresIndicator = (query: () => Promise<unknown>): HealthIndicator => ({
  name: 'postgres',
  check: async () => {
    await query();
  },
});

export const redisIndicator = (ping: () => Promise<unknown>): HealthIndicator => ({
  name: 'redis',
  check: async () => {
    const answer = await ping();
    if (answer !== 'PONG') throw new Error(`unexpected answer ${String(answer)}`);
  },
});
