import { randomSuffix, useTestDatabase } from '@mapi/testing';
import type { MessageChange } from '../connector/phone-connector';
import { SandboxChangeReporter } from './sandbox-change-reporter';
import { SandboxChanges } from './sandbox-changes';

/**
 * The sandbox phone's change reports in real Postgres: a read is handed on without waiting for the
 * previous one's acknowledgement, no row is handed on twice while its acknowledgement is pending,
 * rows are deleted only once acknowledged (a crash before that hands them on again), and a failed
 * publication puts its rows back.
 */
describe('SandboxChangeReporter (integration)', () => {
  const t = useTestDatabase('phones_sandbox_reporter');
  let changes: SandboxChanges;
  beforeAll(() => {
    changes = new SandboxChanges(t.prisma);
  });

  /** An emit whose acknowledgements the test gives (or refuses) by hand, batch by batch. */
  const manualEmit = () => {
    const batches: { changes: MessageChange[]; ack: () => void; fail: () => void }[] = [];
    const emit = (c: MessageChange[]) =>
      new Promise<void>((resolve, reject) =>
        batches.push({ changes: c, ack: resolve, fail: () => reject(new Error('publication failed')) }),
      );
    return { batches, emit };
  };
  const edit = (phoneId: string, body: string) =>
    t.prisma.$executeRaw`INSERT INTO sandbox_changes (phone_id, chat_id, unique_id, from_me, change)
      VALUES (${phoneId}, '15550000001@c.us', ${`U${body}`}, false, ${JSON.stringify({ edit: { body } })}::jsonb)`;
  const left = (phoneId: string) => t.prisma.sandboxChange.count({ where: { phone_id: phoneId } });
  const bodies = (c: MessageChange[]) => c.map((x) => x.edit?.body);

  it('reads again while a publication awaits its acknowledgement, without handing a row on twice; deletes each once acknowledged', async () => {
    const phone = `phone-rep${randomSuffix(6)}`;
    const { batches, emit } = manualEmit();
    const reporter = new SandboxChangeReporter(changes, phone, emit, () => undefined);
    await edit(phone, 'one');
    await reporter.report();
    await edit(phone, 'two');
    await reporter.report(); // the first batch is not acknowledged yet
    await reporter.report(); // nothing new: no batch
    expect(batches.map((b) => bodies(b.changes))).toEqual([['one'], ['two']]);
    expect(await left(phone)).toBe(2); // nothing deleted before its acknowledgement

    batches[1].ack();
    batches[0].ack();
    await reporter.settled();
    expect(await left(phone)).toBe(0);
    await reporter.report();
    expect(batches).toHaveLength(2);
  });

  it('a publication that fails puts its rows back: the next read hands them on again and asks for that read', async () => {
    const phone = `phone-rep${randomSuffix(6)}`;
    const { batches, emit } = manualEmit();
    let retries = 0;
    const reporter = new SandboxChangeReporter(changes, phone, emit, () => retries++);
    await edit(phone, 'one');
    await reporter.report();
    batches[0].fail();
    await reporter.settled();
    expect(retries).toBe(1);
    expect(await left(phone)).toBe(1);
    await reporter.report();
    expect(batches.map((b) => bodies(b.changes))).toEqual([['one'], ['one']]);
    batches[1].ack();
    await reporter.settled();
    expect(await left(phone)).toBe(0);
  });

  it('a reporter that stops before the acknowledgement (a crash) leaves the rows: the next session hands them on again', async () => {
    const phone = `phone-rep${randomSuffix(6)}`;
    const first = manualEmit();
    await edit(phone, 'one');
    await new SandboxChangeReporter(changes, phone, first.emit, () => undefined).report();
    expect(first.batches).toHaveLength(1); // sent, never acknowledged: the process died

    const next = manualEmit();
    const reporter = new SandboxChangeReporter(changes, phone, next.emit, () => undefined);
    await reporter.report();
    expect(next.batches.map((b) => bodies(b.changes))).toEqual([['one']]);
    next.batches[0].ack();
    await reporter.settled();
    expect(await left(phone)).toBe(0);
  });
});
