import type { Redis } from 'ioredis';
import { Errors } from '@mapi/contracts';
import { idempotencyKeyReused, idempotencyUuid, requestFingerprint, validateIdempotencyKey } from '@mapi/platform';
import { idempotencyKey } from '../queues/keys';

const PENDING = 'pending:';
const FREED = Symbol('freed');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request's fingerprint: a repeat with another body under the same key is refused. */
export const fingerprint = requestFingerprint;

/**
 * `Idempotency-Key`: the first request with a key reserves it, runs, and stores its answer; a repeat
 * (same organization, operation and body) gets the stored answer; a repeat while the first still runs
 * waits for it. A failed first request frees the key. Job ids are derived from the key too
 * (`jobIdFor`), so a first request that died after queuing but before storing its answer cannot
 * queue the same messages twice when retried.
 *
 * The reservation is a lease (`leaseMs`), renewed while the first request runs: a process killed
 * mid-request (SIGKILL, OOM, a lost node) frees the key within the lease, and the client's retry then
 * runs it (the derived job ids keep that from queuing twice). A fixed reservation would make every
 * retry of such a request fail until it expired.
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly ttlSeconds: number,
    private readonly waitMs = 5_000,
    private readonly leaseMs = 10_000,
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
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const reserved = await this.redis.set(redisKey, `${PENDING}${fp}`, 'PX', this.leaseMs, 'NX');
      if (reserved === 'OK') return this.runReserved(redisKey, fp, work);
      const stored = await this.stored<T>(redisKey, fp, deadline);
      if (stored !== FREED) return stored.answer;
    }
  }

  private async runReserved<T>(redisKey: string, fp: string, work: () => Promise<T>): Promise<T> {
    // Renewed at a third of the lease, so two missed renewals still leave it held.
    const renew = setInterval(
      () => void this.redis.pexpire(redisKey, this.leaseMs).catch(() => undefined),
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    try {
      const answer = await work();
      clearInterval(renew);
      await this.redis.set(redisKey, JSON.stringify({ fp, answer }), 'EX', this.ttlSeconds);
      return answer;
    } catch (error) {
      clearInterval(renew);
      await this.redis.del(redisKey);
      throw error;
    }
  }

  /** The stored answer, or FREED when the key is free again (the first request failed, or its process died). */
  private async stored<T>(redisKey: string, fp: string, deadline: number): Promise<{ answer: T } | typeof FREED> {
    for (;;) {
      const value = await this.redis.get(redisKey);
      if (value === null) return FREED;
      const pending = value.startsWith(PENDING);
      const storedFp = pending ? value.slice(PENDING.length) : (JSON.parse(value) as { fp: string }).fp;
      if (storedFp !== fp) throw idempotencyKeyReused();
      if (!pending) return { answer: (JSON.parse(value) as { answer: T }).answer };
      // 503, not a 4xx: nothing is wrong with the request, and a caller that retries on 4xx no more
      // (the workflow engine, most clients) would give up on a send the first request may yet fail
      if (Date.now() > deadline) throw Errors.unavailable('The first request with this Idempotency-Key is still running; retry shortly');
      await sleep(25);
    }
  }
}
