import type { Logger } from 'pino';

/**
 * Says that a dependency is failing once, not once per request. The first failure of a kind (and
 * cause: the error's message, numbers aside) is logged at once; those that follow within `everyMs`
 * are only counted, and the next line logged for them says how many were left out and over how long. A quiet `everyMs` later, the next
 * failure is logged at once again. Errors are logged by message, without their stack: a stack per
 * request during an outage was megabytes of the same lines.
 */
export class OutageLog {
  /** Kinds (and causes) seen, oldest first; at most `maxKinds`, so a stream of ever-new causes holds no memory. */
  private readonly kinds = new Map<string, { loggedAt: number; suppressed: number }>();

  constructor(
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly everyMs = 30_000,
    private readonly now: () => number = Date.now,
    private readonly maxKinds = 1_000,
  ) {}

  warn(kind: string, fields: Record<string, unknown> = {}): void {
    const at = this.now();
    // A kind with another cause is another line: "refused" and "too many clients" both say something.
    const key = `${kind}\u0000${causeOf(fields.err)}`;
    const seen = this.kinds.get(key);
    if (seen && at - seen.loggedAt < this.everyMs) {
      seen.suppressed++;
      return;
    }
    const left = seen?.suppressed ? { suppressed: seen.suppressed, over_ms: at - seen.loggedAt } : {};
    this.logger.warn({ ...withoutStack(fields), ...left }, kind);
    this.kinds.delete(key);
    if (this.kinds.size >= this.maxKinds) this.forget(at);
    this.kinds.set(key, { loggedAt: at, suppressed: 0 });
  }

  /** Room for one more kind: those whose window has ended go (a next failure is logged at once anyway), else the oldest. */
  private forget(at: number): void {
    for (const [key, seen] of this.kinds) if (at - seen.loggedAt >= this.everyMs) this.kinds.delete(key);
    if (this.kinds.size >= this.maxKinds) this.kinds.delete(this.kinds.keys().next().value as string);
  }
}

const logs = new WeakMap<object, OutageLog>();

/** The OutageLog of a logger (one per logger, so every call site of a process shares the counts). */
export function outageLog(logger: Pick<Logger, 'warn'>): OutageLog {
  let log = logs.get(logger);
  if (!log) logs.set(logger, (log = new OutageLog(logger)));
  return log;
}

/** The error's message without what varies between two failures of one cause (UUIDs, numbers: ports, ids, counts). */
function causeOf(err: unknown): string {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return message
    .replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '#')
    .replace(/\d+/g, '#')
    .trim()
    .slice(-120);
}

function withoutStack(fields: Record<string, unknown>): Record<string, unknown> {
  const err = fields.err;
  return err instanceof Error ? { ...fields, err: err.message.trim() } : fields;
}
