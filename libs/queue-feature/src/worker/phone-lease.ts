import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { PhoneQueueKeys } from '../queues/keys';
import { LuaScript } from '../queues/lua-script';

/** Takes the lease when free, or renews it when this holder has it: 1 held, 0 another holder has it. */
const TAKE = new LuaScript(`
local v = redis.call('GET', KEYS[1])
if v == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
`);
const RELEASE = new LuaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`);

/**
 * Which worker process serves a phone that only one may serve at a time (an exclusive pace: a Cloud
 * API number at 80 messages a second, whose jobs would otherwise run side by side on two replicas and
 * leave out of order). A key per phone with this process's token, renewed at every scan; a process that
 * died leaves it to expire after `ttlMs`, then another takes the phone over.
 */
export class PhoneLeases {
  readonly token = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    readonly ttlMs: number,
  ) {}

  private key(phoneId: string) {
    return new PhoneQueueKeys(this.namespace, phoneId).serving;
  }

  /** Takes or renews the phone's lease: whether this process holds it now. */
  async hold(phoneId: string): Promise<boolean> {
    return (await TAKE.run<number>(this.redis, [this.key(phoneId)], [this.token, this.ttlMs])) === 1;
  }

  /** Gives the phone up (its worker closed), so another process may take it at its next scan. */
  async release(phoneId: string): Promise<void> {
    await RELEASE.run(this.redis, [this.key(phoneId)], [this.token]);
  }
}
