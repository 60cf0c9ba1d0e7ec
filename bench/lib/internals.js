'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * A feature library's internals (the repositories, use cases and mappers a bench measures) from a built
 * checkout: its dist/internals.js (@mapi/<lib>/internals), or, for a checkout from before that entry
 * point existed, its dist/index.js, which exported them then. For comparisons with BENCH_BEFORE_ROOT.
 */
function internalsOf(root, lib) {
  const dist = path.join(root, 'libs', lib, 'dist');
  return require(path.join(dist, fs.existsSync(path.join(dist, 'internals.js')) ? 'internals.js' : 'index.js'));
}

module.exports = { internalsOf };
