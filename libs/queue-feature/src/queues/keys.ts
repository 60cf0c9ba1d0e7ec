import { bullPrefix } from '@mapi/platform';

/**
 * Redis layout. BullMQ keys live under `<NAMESPACE>:bull` (one queue per phone: `send-<phone_id>`);
 * the queue service's own keys (fences, broadcast index, idempotency) under `<NAMESPACE>:sendq`.
 */
export const SEND_QUEUE = 'send';
export const sendQueueName = (phoneId: string) => `${SEND_QUEUE}-${phoneId}`;

export class PhoneQueueKeys {
  /** BullMQ's key of the phone's queue; a job's hash is `${base}:${id}`. */
  readonly base: string;
  private readonly own: string;

  constructor(
    namespace: string,
    readonly phoneId: string,
  ) {
    this.base = `${bullPrefix(namespace)}:${sendQueueName(phoneId)}`;
    this.own = `${namespace}:sendq:${phoneId}`;
  }

  job(id: string) {
    return `${this.base}:${id}`;
  }
  /** BullMQ's lists and sets of jobs not yet taken by a worker. */
  get unsent() {
    return {
      prioritized: `${this.base}:prioritized`,
      delayed: `${this.base}:delayed`,
      wait: `${this.base}:wait`,
      paused: `${this.base}:paused`,
    };
  }
  /** BullMQ's list of the jobs workers hold. */
  get active() {
    return `${this.base}:active`;
  }
  /** Sequence number of the phone's jobs (a purge of everything fences every job numbered up to it). */
  get seq() {
    return `${this.own}:seq`;
  }
  get fenceAll() {
    return `${this.own}:fence:all`;
  }
  get fenceIds() {
    return `${this.own}:fence:ids`;
  }
  get fenceBroadcasts() {
    return `${this.own}:fence:bcast`;
  }
  /** Set of the job ids of one broadcast (a broadcast purge removes exactly these). */
  broadcast(broadcastId: string) {
    return `${this.own}:bcast:${broadcastId}`;
  }
  /** The worker process serving the phone alone (a phone paced fast, e.g. a Cloud API number), with an expiry. */
  get serving() {
    return `${this.own}:serving`;
  }
  /** Set of the keys a purge of everything renamed away, whose job hashes are still to delete. */
  get trash() {
    return `${this.own}:trash`;
  }
}

/** Every phone that has had a send queue (the workers serve each). */
export const phonesWithQueuesKey = (namespace: string) => `${namespace}:sendq:phones`;
/** Set (with a short expiry) by each worker process at every scan: some process serves every phone's queue. */
export const workersAliveKey = (namespace: string) => `${namespace}:sendq:workers-alive`;
export const idempotencyKey = (namespace: string, orgId: string, operation: string, key: string) =>
  `${namespace}:sendq:idem:${orgId}:${operation}:${key}`;
