'use strict';
/**
 * A bench's teardown, run once whatever ends it: normal end, Ctrl-C / SIGTERM, or its hard timeout.
 * Push async steps to `cleanups` as resources are made; they run in reverse order, and a failing
 * step is reported without stopping the others.
 */
function guardBench(timeoutMs) {
  const cleanups = [];
  let cleaning;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const fn of cleanups.reverse()) await fn().catch((e) => console.error('cleanup step failed:', e.message));
    })());
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => cleanup().finally(() => process.exit(130)));
  setTimeout(() => {
    console.error(`bench exceeded ${timeoutMs / 1000} s: aborting`);
    cleanup().finally(() => process.exit(2));
  }, timeoutMs).unref();
  return { cleanups, cleanup };
}

module.exports = { guardBench };
