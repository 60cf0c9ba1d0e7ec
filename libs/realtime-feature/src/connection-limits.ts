import { HandshakeRefusal } from './handshake';

/** Open sockets of this replica, in total and per token; `acquire` refuses beyond the limits. */
export class ConnectionLimits {
  private total = 0;
  private readonly perToken = new Map<string, number>();

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerToken: number,
  ) {}

  /** Takes a slot for `tokenId` or throws a 429 refusal; pair every success with one `release`. */
  acquire(tokenId: string): void {
    if (this.total >= this.maxTotal)
      throw new HandshakeRefusal(
        'RATE_LIMIT_ERROR',
        429,
        `Too many realtime connections on this server (limit ${this.maxTotal}); retry later`,
      );
    const held = this.perToken.get(tokenId) ?? 0;
    if (held >= this.maxPerToken)
      throw new HandshakeRefusal('RATE_LIMIT_ERROR', 429, `Too many realtime connections for this token (limit ${this.maxPerToken})`);
    this.perToken.set(tokenId, held + 1);
    this.total += 1;
  }

  release(tokenId: string): void {
    const held = this.perToken.get(tokenId) ?? 0;
    if (held <= 1) this.perToken.delete(tokenId);
    else this.perToken.set(tokenId, held - 1);
    this.total = Math.max(0, this.total - 1);
  }

  get open(): number {
    return this.total;
  }
}
