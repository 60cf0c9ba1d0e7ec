import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Errors } from '@mapi/contracts';
import { idempotencyKey } from '../queues/keys';

const PENDING = 'pending:';
const MAX_KEY_LENGTH = 255;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request's fingerprint: a repeat with another body under the same key is refused. */
export const fingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

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
    if (key === undefined) return undefined;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw Errors.validation({ 'idempotency-key': { message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`, value: key } });
    }
    return key;
  }

  /** A UUID derived from the key (same key, same ids). */
  static jobIdFor(orgId: string, operation: string, key: string, index: number): string {
    const h = createHash('sha256').update(`${orgId}|${operation}|${key}|${index}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
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
      if (storedFp !== fp) throw Errors.validation({ 'idempotency-key': { message: 'this Idempotency-Key was used with a different request', value: null } });
      if (!pending) return (JSON.parse(value) as { answer: T }).answer;
      if (Date.now() > deadline) throw Errors.validation({ 'idempotency-key': { message: 'the first request with this key is still running; retry', value: null } });
      await sleep(25);
    }
  }
}
