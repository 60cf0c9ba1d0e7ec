import { percentDone, reportRows, startBody, type ImportRun } from './imports-view';

const run = (over: Partial<ImportRun> = {}): ImportRun => ({
  import_id: 'i',
  source_url: 'https://api.example.com/v1',
  dry_run: false,
  status: 'running',
  progress: { step: 'messages', chats_done: 5, chats_total: 20 },
  report: {},
  error: null,
  created_at: '',
  finished_at: null,
  ...over,
});

describe('imports view', () => {
  it('orders the report as an import brings the resources', () => {
    const r = run({
      report: {
        messages: { read: 3, created: 3, updated: 0, skipped: 0, failed: 0 },
        phones: { read: 1, created: 1, updated: 0, skipped: 0, failed: 0 },
      },
    });
    expect(reportRows(r).map((x) => x.resource)).toEqual(['phones', 'messages']);
  });

  it("gives the history's share done, 100 once completed, null before it is known", () => {
    expect(percentDone(run())).toBe(25);
    expect(percentDone(run({ progress: { step: 'phones', chats_done: 0, chats_total: null } }))).toBeNull();
    expect(percentDone(run({ status: 'completed', progress: { step: null, chats_done: 0, chats_total: 0 } }))).toBe(100);
  });

  it('leaves blank fields out of the start request', () => {
    expect(startBody({ from: ' https://x/v1 ', token: ' t ', phones: '', since: '', dryRun: false })).toEqual({
      from: 'https://x/v1',
      token: 't',
    });
    expect(startBody({ from: 'https://x/v1', token: 't', phones: 'a, b', since: '2026-01-01T00:00:00Z', dryRun: true })).toEqual({
      from: 'https://x/v1',
      token: 't',
      phones: ['a', 'b'],
      since: '2026-01-01T00:00:00.000Z',
      dry_run: true,
    });
  });
});
