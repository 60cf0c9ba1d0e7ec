// Run by the build after vite: the console's JavaScript, gzipped, must stay under the budget
// (250 KB). Prints the figure; exits non-zero past the budget. The e2e spec checks the same.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 250 * 1024;
const dir = join(import.meta.dirname, '..', 'dist', 'web', 'assets');
const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
const total = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
console.log(`console: ${files.length} JavaScript file(s), ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB)`);
if (total > BUDGET) process.exit(1);
