import type { Redis } from 'ioredis';
import { Errors } from '@mapi/contracts';
import { idempotencyKeyReused, idempotencyUuid, requestFingerprint, validateIdempotencyKey } from '@mapi/platform';
import { idempotencyKey } from '../queues/keys';

const PENDING = 'pending:';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request's fingerprint: a repeat with another body under the same key is refused. */
export const fingerprint = requestFingerprint;

/**
 * `Idempotency-Key`: the first request with a key reserves it, runs, and stores its answer; a repeat
 * (same organization, operation and body) gets the stored answer; a repeat while the first still runs
 * waits for it. A failed first request frees the key. Job ids are derived from the key too
 * (`jobIdFor`), so a first request that died after queuing but before storing its answer cannot
 * queue the same messages twice when retried.
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly ttlSeconds: number,
    private readonly waitMs = 5_000,
  ) {}

  static validate(key: string | undefined): string | undefined {
    return validateIdempotencyKey(key);
  }

  /** A UUID derived from the key (same key, same ids). */
  static jobIdFor(orgId: string, operation: string, key: string, index: number): string {
    return idempotencyUuid(orgId, operation, key, index);
  }

  async run<T>(orgId: string, operation: string, key: string | undefined, request: unknown, work: () => Promise<T>): Promise<T> {
    if (key === undefined) return work();
    const redisKey = idempotencyKey(this.namespace, orgId, operation, key);
    const fp = fingerprint(request);
    const reserved = await this.redis.set(redisKey, `${PENDING}${fp}`, 'EX', 300, 'NX');
    if (reserved !== 'OK') return this.stored<T>(redisKey, fp);
    try {
      const answer = await work();
      await this.redis.set(redisKey, JSON.stringify({ fp, answer }), 'EX', this.ttlSeconds);
      return answer;
    } catch (error) {
      await this.redis.del(redisKey);
      throw error;
    }
  }

  private async stored<T>(redisKey: string, fp: string): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const value = await this.redis.get(redisKey);
      if (value === null) throw Errors.validation({ 'idempotency-key': { message: 'the first request with this key failed; retry', value: null } });
      const pending = value.startsWith(PENDING);
      const storedFp = pending ? value.slice(PENDING.length) : (JSON.parse(value) as { fp: string }).fp;
      if (storedFp !== fp) throw idempotencyKeyReused();
      if (!pending) return (JSON.parse(value) as { answer: T }).answer;
      if (Date.now() > deadline) throw Errors.validation({ 'idempotency-key': { message: 'the first request with this key is still running; retry', value: null } });
      await sleep(25);
    }
  }
}
