import type { Redis } from 'ioredis';

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * One phones replica owns a phone's session at a time: a Redis key per phone holding the owner's id
 * with an expiry. The owner renews it; when a replica dies its leases expire and another takes over.
 */
export class PhoneLeases {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    readonly owner: string,
    readonly ttlMs: number,
  ) {}

  private key(phoneId: string) {
    return `${this.namespace}:phone-lease:${phoneId}`;
  }

  async acquire(phoneId: string): Promise<boolean> {
    return (await this.redis.set(this.key(phoneId), this.owner, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  async renew(phoneId: string): Promise<boolean> {
    return Number(await this.redis.eval(RENEW, 1, this.key(phoneId), this.owner, this.ttlMs)) === 1;
  }

  async release(phoneId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(phoneId), this.owner);
  }

  holder(phoneId: string): Promise<string | null> {
    return this.redis.get(this.key(phoneId));
  }
}
