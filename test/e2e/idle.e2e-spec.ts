import { readFileSync } from 'node:fs';
import { startStack, type Stack } from './support/stack';

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const SETTLE_STEP_MS = 5_000;
/** Start-up work (migrations checked, streams, first scans) takes longer beside a loaded Jest worker. */
const MAX_SETTLE_MS = 60_000;
const WINDOW_MS = 30_000;
/** The aim of issue 22 ("nothing burns at rest") that this test holds: the database's idle statement rate. */
const MAX_COMMITS_PER_SECOND_PER_REPLICA = 1;
/**
 * CPU is measured here but held only to a guard well above the aim (0.5 % of a core, met on a quiet
 * machine: docs/benchmarks.md "At rest"): beside the other Jest worker's load the same idle work reads
 * up to twice as high. A poll loop like the relays' old 50 ms one (8 %) still fails it.
 */
const MAX_CPU_SHARE = 0.02;

/**
 * A started stack with no request and no message: the database sees under one transaction a second
 * per app that uses it, and no app spins. What used to burn: the outbox
 * relays' 50 ms polls (now LISTEN/NOTIFY) and the webhook workers' 250 ms claims (now spaced out at rest).
 */
describe('a stack at rest', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      {},
      { services: ['phones', 'groups', 'queue', 'webhooks-dispatcher', 'knowledge-base', 'embedding-worker', 'automation'] },
    );
  }, 120_000);
  afterAll(() => stack?.stop());

  it('commits under one transaction a second per app, and no app spins', async () => {
    const apps = { 'api-gateway': stack.gateway, ...stack.apps };
    const usingPostgres = Object.keys(apps).filter((name) => name !== 'queue').length;
    const limit = MAX_COMMITS_PER_SECOND_PER_REPLICA * usingPostgres;
    const commits = async () =>
      Number(
        (await stack.prisma.$queryRaw<{ n: bigint }[]>`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`)[0]
          .n,
      );
    /** Autovacuum's own commits count in xact_commit; the log shows them so a failure says whose commits they were. */
    const vacuums = async () =>
      Number(
        (
          await stack.prisma.$queryRaw<
            { n: bigint }[]
          >`SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0)::bigint AS n FROM pg_stat_all_tables`
        )[0].n,
      );
    // Start-up is over once one step's rate is under the limit (or the settle time is spent); the window that
    // follows is what the test holds, so a steady burn still fails it.
    for (let waited = 0, last = await commits(); waited < MAX_SETTLE_MS; waited += SETTLE_STEP_MS) {
      await new Promise((r) => setTimeout(r, SETTLE_STEP_MS));
      const now = await commits();
      const settled = (now - last - 1) / (SETTLE_STEP_MS / 1000) < limit;
      last = now;
      if (settled) break;
    }
    const cpuBefore = Object.fromEntries(Object.entries(apps).map(([name, app]) => [name, cpuSeconds(app.child.pid!)]));
    const vacuumsBefore = await vacuums();
    const commitsBefore = await commits();
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const commitRate = ((await commits()) - commitsBefore - 1) / (WINDOW_MS / 1000); // less this spec's own read
    const vacuumed = (await vacuums()) - vacuumsBefore;
    const shares = Object.fromEntries(
      Object.entries(apps).map(([name, app]) => [name, (cpuSeconds(app.child.pid!) - cpuBefore[name]) / (WINDOW_MS / 1000)]),
    );
    console.log(
      `at rest over ${WINDOW_MS / 1000} s: ${commitRate.toFixed(2)} commits/s (${vacuumed} autovacuum/analyze runs); CPU share per app ${JSON.stringify(shares)}`,
    );
    expect(commitRate).toBeLessThan(limit);
    for (const [name, share] of Object.entries(shares))
      expect({ name, share: share < MAX_CPU_SHARE ? 'under the guard' : share }).toEqual({ name, share: 'under the guard' });
  }, 150_000);
});
