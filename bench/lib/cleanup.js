'use strict';
/**
 * A bench's teardown, run once whatever ends it: normal end, failure, Ctrl-C / SIGTERM, or its hard
 * timeout. Push async steps to `cleanups` as resources are made; they run in reverse order, and a
 * failing step is reported without stopping the others. `onAbort` stops load still running (a
 * signal or the timeout) before the teardown. `run(main)` runs the bench, tears down, and exits
 * 0, or 1 after a failure.
 */
function guardBench(timeoutMs, { onAbort = () => undefined } = {}) {
  const cleanups = [];
  let cleaning;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const fn of cleanups.reverse()) await fn().catch((e) => console.error('cleanup step failed:', e.message));
    })());
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      console.error(`\n${sig}: cleaning up`);
      onAbort();
      cleanup().finally(() => process.exit(130));
    });
  }
  setTimeout(() => {
    console.error(`bench exceeded ${timeoutMs / 1000} s: aborting`);
    onAbort();
    cleanup().finally(() => process.exit(2));
  }, timeoutMs).unref();
  const run = (main) =>
    main()
      .then(() => cleanup())
      .then(() => process.exit(0))
      .catch(async (error) => {
        console.error('\nbench failed:', error && error.stack ? error.stack : error);
        await cleanup();
        process.exit(1);
      });
  return { cleanups, cleanup, run };
}

module.exports = { guardBench };
