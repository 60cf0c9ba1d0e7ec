import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * scripts/audit-image.js (issue 37) with a stand-in `npm` first on PATH printing what `npm audit
 * --json` prints: findings, an endpoint refusal, or nothing. The real audit runs in the image test.
 */
const ROOT = resolve(__dirname, '../..');

describe('scripts/audit-image.js', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-image-'));
    mkdirSync(join(dir, 'scripts'));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'scripts/audit-image.js'), join(dir, 'scripts/audit-image.js'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runWith = (npmJson: unknown, exceptions: unknown[] = []) => {
    writeFileSync(join(dir, 'scripts/audit-exceptions.json'), JSON.stringify(exceptions));
    writeFileSync(join(dir, 'out.json'), typeof npmJson === 'string' ? npmJson : JSON.stringify(npmJson));
    writeFileSync(
      join(dir, 'bin/npm'),
      `#!/bin/sh\n[ "$*" = "audit --omit=dev --json" ] || exit 9\ncat "${join(dir, 'out.json')}"\nexit 1\n`,
    );
    chmodSync(join(dir, 'bin/npm'), 0o755);
    const r = spawnSync(process.execPath, [join(dir, 'scripts/audit-image.js')], {
      env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    return { code: r.status, out: r.stdout };
  };
  const finding = (name: string, severity: string) => ({ name, severity, via: [] });

  it('fails on a high or critical finding, naming the package', () => {
    const r = runWith({ vulnerabilities: { a: finding('a', 'critical'), b: finding('b', 'low') } });
    expect(r.code).toBe(1);
    expect(r.out).toContain('critical in a');
    expect(r.out).not.toContain(' in b');
  });

  it('passes with only low or moderate findings, or with an accepted one', () => {
    expect(runWith({ vulnerabilities: { b: finding('b', 'moderate') } }).code).toBe(0);
    const accepted = runWith({ vulnerabilities: { a: finding('a', 'high') } }, [{ package: 'a', why: 'not reachable' }]);
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain('accepted');
  });

  it('says "not checked" (exit 3) when the advisories endpoint refuses or npm prints no JSON', () => {
    const refused = runWith({ message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk' });
    expect(refused).toEqual({ code: 3, out: expect.stringContaining('not checked (405 Method Not Allowed') });
    expect(runWith('npm ERR! something').code).toBe(3);
  });
});
