#!/usr/bin/env node
/**
 * `npm audit --omit=dev` over the lock file the image's tree is installed from (issue 37): exits 1 on a
 * high or critical finding not listed in scripts/audit-exceptions.json (each with why it is accepted),
 * 0 when there is none, and 3 when the registry's advisories endpoint cannot be asked (this machine's
 * registry answers 405 to the POST), so a caller can tell "clean" from "not checked".
 */
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const exceptions = JSON.parse(readFileSync(join(__dirname, 'audit-exceptions.json'), 'utf8'));

function audit() {
  try {
    return execFileSync('npm', ['audit', '--omit=dev', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  } catch (err) {
    // npm exits non-zero both on findings and on an endpoint error; the JSON tells them apart.
    return err.stdout || '';
  }
}

let report;
try {
  report = JSON.parse(audit());
} catch {
  console.log('audit: not checked (npm audit gave no JSON)');
  process.exit(3);
}
if (!report.vulnerabilities) {
  console.log(`audit: not checked (${report.message || report.error?.summary || 'the advisories endpoint did not answer'})`);
  process.exit(3);
}
const serious = Object.values(report.vulnerabilities).filter((v) => v.severity === 'high' || v.severity === 'critical');
const open = serious.filter((v) => !exceptions.some((e) => e.package === v.name));
for (const v of serious)
  console.log(`audit: ${v.severity} in ${v.name}${open.includes(v) ? '' : ' (accepted: scripts/audit-exceptions.json)'}`);
console.log(
  `audit: ${open.length} high or critical finding(s) not accepted, of ${Object.keys(report.vulnerabilities).length} package(s) flagged`,
);
process.exit(open.length ? 1 : 0);
