'use strict';
/**
 * Preloaded into the bench's server processes with BENCH_CPU_PROF=<dir> (NODE_OPTIONS refuses
 * --cpu-prof): profiles the whole process with the inspector and writes <dir>/<app>-<pid>.cpuprofile
 * when it exits. Open the file in Chrome DevTools, or summarize it with bench/media/profile-summary.js.
 */
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_CPU_PROF;
const app = path.basename(path.dirname(path.dirname(process.argv[1] || 'node')));
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
process.once('exit', () => {
  // An in-thread session answers synchronously, so the profile is written before the process ends.
  session.post('Profiler.stop', (err, result) => {
    if (!err) fs.writeFileSync(path.join(dir, `${app}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
