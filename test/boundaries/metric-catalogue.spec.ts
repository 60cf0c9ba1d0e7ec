import { join } from 'node:path';
import { METRICS } from '@mapi/contracts';
import { catalogueProblems, productionSources } from './metric-catalogue';

const root = join(__dirname, '..', '..');

/**
 * The metric catalogue is the list of what the apps export: the deployment's dashboards and KEDA
 * queries are checked against it (test/deploy), so the code may create no instrument outside it
 * and it may list nothing the code does not create.
 */
describe('every metric the code creates is in the catalogue, and only those', () => {
  it('holds for the code', () => {
    const files = productionSources(root);
    expect(files.length).toBeGreaterThan(100);
    expect(catalogueProblems(files, METRICS)).toEqual([]);
  });

  it('bites on an instrument named by a string, one of the wrong kind, and a catalogued metric nobody creates', () => {
    const planted = [
      { path: 'libs/queue-feature/src/planted.ts', text: "meter().createCounter('mapi.queue.sent', { unit: '{job}' });" },
      {
        path: 'libs/chats-feature/src/planted.ts',
        text: 'meter()\n  .createCounter(METRICS.ingestLag.name, metricOptions(METRICS.ingestLag));',
      },
    ];
    const problems = catalogueProblems(planted, METRICS);
    expect(problems.slice(0, 2)).toEqual([
      "libs/queue-feature/src/planted.ts: createCounter('mapi.queue.sent') is not named from METRICS (libs/contracts/src/metrics/metric-catalogue.ts)",
      'libs/chats-feature/src/planted.ts: METRICS.ingestLag is a histogram, created with createCounter',
    ]);
    expect(problems).toContain('METRICS.queuePhonesWaiting (mapi.queue.phones.waiting): no instrument creates it');
  });
});
