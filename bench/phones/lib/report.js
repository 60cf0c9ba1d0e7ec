'use strict';
/** Prints the run's table (markdown, for docs/benchmarks.md, "Phones ingestion") and the verdict. */
const { fmt } = require('./stats');

const AIM = { rate: 2000, p99Ms: 1000 };

function printReport(results) {
  const rows = results.runs.map((r) => {
    const cpu = r.cpu_s_per_1k;
    return [
      r.name,
      fmt(r.offered_rate),
      r.drained ? fmt(r.throughput) : `not drained (${r.readable}/${r.offered})`,
      r.sql_count === r.offered ? 'yes' : `${r.sql_count}/${r.offered}`,
      fmt(r.sustained_readable_rate),
      fmt(r.sustained_handed_rate),
      `${fmt(r.lag_ms.p50)} / ${fmt(r.lag_ms.p99)} / ${fmt(r.lag_ms.max)}`,
      r.http_lag_ms.n ? `${fmt(r.http_lag_ms.p50)} / ${fmt(r.http_lag_ms.p99)} (n=${r.http_lag_ms.n})` : '–',
      fmt(r.max_js_pending_events),
      fmt(r.msgs_per_event, 1),
      fmt(r.redeliveries),
      fmt(r.db_commits_per_1k),
      ['chats', 'phones', 'api-gateway', 'postgres for chats', 'postgres for phones', 'postgres other (gateway, bench, autovacuum)']
        .map((k) => fmt(cpu[k], 2))
        .join(' / '),
      ['chats', 'phones', 'postgres for chats', 'postgres for phones', 'postgres other (gateway, bench, autovacuum)']
        .map((k) => fmt(r.cores_used[k], 2))
        .join(' / '),
      fmt(r.cpu_s['machine busy %']),
    ];
  });
  const head = [
    'run',
    'offered msg/s',
    'throughput msg/s (first insert → all readable)',
    'all in messages (SQL)',
    'readable msg/s (steady part)',
    'handed to JetStream msg/s (steady part)',
    'lag p50 / p99 / max ms',
    'GET lag p50 / p99 ms',
    'max events waiting in JetStream',
    'msgs / event',
    'events redelivered',
    'service DB commits / 1k msgs',
    'CPU s / 1k msgs (drained runs): chats / phones / gateway / pg for chats / pg for phones / pg other',
    'cores used: chats / phones / pg for chats / pg for phones / pg other',
    'machine busy %',
  ];
  console.log(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);

  const top = results.runs.find((r) => r.name === `pipeline ${AIM.rate}/s`);
  if (top) {
    const met = top.drained && top.sustained_readable_rate >= AIM.rate * 0.95 && top.lag_ms.p99 < AIM.p99Ms;
    console.log(
      `\naim (${AIM.rate} msg/s sustained, lag p99 < ${AIM.p99Ms} ms) on one phone: ${met ? 'MET' : 'NOT MET'} (readable ${fmt(top.sustained_readable_rate)}/s, p99 ${fmt(top.lag_ms.p99)} ms)`,
    );
  }
  console.log(
    `spot check through GET messages: ${results.spot_check?.ok ? 'ok' : 'MISMATCH'} ${JSON.stringify(results.spot_check?.chats)}`,
  );
  console.log(`build: HEAD ${results.build.head}${results.rebuilt_during_run ? ' — REBUILT DURING THE RUN: figures mix two builds' : ''}`);
  console.log(
    `load average start ${results.load_average.start.join(' ')}, end ${results.load_average.end.join(' ')}; ${results.total_seconds.toFixed(0)} s in all`,
  );
  if (results.explain_pending)
    console.log(`\npending() plan after the runs (${results.sandbox_rows} sandbox rows):\n  ${results.explain_pending.join('\n  ')}`);
  for (const [name, p] of Object.entries(results.profiles ?? {})) {
    console.log(
      `\n${name} CPU profile (busy ${p.busy_pct_of_wall}% of wall):\n  ${p.top.join('\n  ')}\n  by package: ${p.by_package.join(', ')}`,
    );
  }
}

module.exports = { printReport };
