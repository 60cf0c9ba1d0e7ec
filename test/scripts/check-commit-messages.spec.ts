import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * scripts/check-commit-messages.js (CONTRIBUTING.md, "Commits") and its commit-msg hook, run in
 * scratch git repositories: each rule has a message that breaks it, next to messages that pass.
 */
const ROOT = resolve(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/check-commit-messages.js');

const LONG_73 = `feat: ${'x'.repeat(67)}`; // 73 characters
const EXACT_72 = `feat: ${'y'.repeat(66)}`; // 72 characters

describe('scripts/check-commit-messages.js', () => {
  let dir: string;
  let home: string;
  // The developer's own git configuration (a global hooksPath, a commit template, signing) stays out.
  const env = () => ({
    ...process.env,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: env(), encoding: 'utf8', stdio: 'pipe' }).trim();
  /** A commit with exactly this message (no hook, no clean-up beyond whitespace). */
  const commit = (message: string) => {
    execFileSync('git', ['commit', '--allow-empty', '--no-verify', '--cleanup=whitespace', '-F', '-'], {
      cwd: dir,
      env: env(),
      input: message,
      stdio: 'pipe',
    });
    return git('rev-parse', 'HEAD');
  };
  const check = (...args: string[]) => {
    const r = spawnSync('node', [SCRIPT, ...args], { cwd: dir, env: env(), encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  /** A message file as the hook gets it. */
  const messageFile = (text: string) => {
    const path = join(dir, 'MSG');
    writeFileSync(path, text);
    return 'MSG';
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mapi-commit-msg-'));
    home = mkdtempSync(join(tmpdir(), 'mapi-commit-msg-home-'));
    writeFileSync(join(home, 'gitconfig'), '');
    git('init', '-q', '-b', 'main');
    commit('chore: the first commit');
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  describe('a range', () => {
    it('passes subjects of at most 72 characters, with or without a body after a blank line', () => {
      const base = git('rev-parse', 'HEAD');
      commit(EXACT_72);
      commit('fix: the subject says what\n\nThe body says why, over\nseveral lines.\n');
      const r = check(`${base}..HEAD`);
      expect(r.out).toContain('2 commits');
      expect(r.status).toBe(0);
    });

    it('fails a subject over 72 characters, naming the commit and its length', () => {
      const base = git('rev-parse', 'HEAD');
      commit('ok: a good one');
      const bad = commit(`${LONG_73}\n\nwhy\n`);
      const r = check(`${base}..HEAD`);
      expect(r.status).toBe(1);
      expect(r.out).toContain(bad.slice(0, 10));
      expect(r.out).toContain('subject is 73 characters (at most 72)');
      expect(r.out).not.toContain('ok: a good one');
    });

    it('counts characters, not bytes: 72 em dashes pass', () => {
      const base = git('rev-parse', 'HEAD');
      commit('—'.repeat(72));
      expect(check(`${base}..HEAD`).status).toBe(0);
    });

    it('fails a subject followed by a non-blank second line (a paragraph for a subject)', () => {
      const base = git('rev-parse', 'HEAD');
      const bad = commit('docs: the subject runs on\nonto a second line with no blank before it\n');
      const r = check(`${base}..HEAD`);
      expect(r.status).toBe(1);
      expect(r.out).toContain(bad.slice(0, 10));
      expect(r.out).toContain('second line is not blank');
    });

    it('fails a subject ending with a period', () => {
      const base = git('rev-parse', 'HEAD');
      const bad = commit('fix: a subject that ends with a period.\n\nwhy\n');
      const r = check(`${base}..HEAD`);
      expect(r.status).toBe(1);
      expect(r.out).toContain(bad.slice(0, 10));
      expect(r.out).toContain('subject ends with a period');
    });

    it('lists every offender and every problem of each', () => {
      const base = git('rev-parse', 'HEAD');
      const a = commit(`${LONG_73}.\nsecond line\n`);
      const b = commit('fix: another.\n');
      const r = check(`${base}..HEAD`);
      expect(r.status).toBe(1);
      expect(r.out).toContain('2 commits break the rule');
      expect(r.out).toContain(a.slice(0, 10));
      expect(r.out).toContain(b.slice(0, 10));
      expect(r.out).toContain('subject is 74 characters');
      expect(r.out.match(/subject ends with a period/g)).toHaveLength(2);
    });

    it('exempts merge commits, not the commits they bring in', () => {
      const base = git('rev-parse', 'HEAD');
      git('checkout', '-q', '-b', 'feature');
      commit('feat: on the branch');
      git('checkout', '-q', 'main');
      commit('fix: on main');
      git(
        'merge',
        '-q',
        '--no-ff',
        '--no-verify',
        '-m',
        `Merge branch 'feature' with a subject far longer than seventy-two characters.`,
        'feature',
      );
      expect(check(`${base}..HEAD`).status).toBe(0);

      git('checkout', '-q', '-b', 'feature-2');
      const bad = commit('feat: on the second branch.');
      git('checkout', '-q', 'main');
      commit('fix: on main again');
      git('merge', '-q', '--no-ff', '--no-verify', '-m', 'Merge feature-2', 'feature-2');
      const r = check(`${base}..HEAD`);
      expect(r.status).toBe(1);
      expect(r.out).toContain(bad.slice(0, 10));
    });

    it('checks only the range it is given', () => {
      commit('old: a subject from before the rule.');
      const base = git('rev-parse', 'HEAD');
      commit('new: follows the rule');
      expect(check(`${base}..HEAD`).status).toBe(0);
      expect(check(`${base}~1..HEAD`).status).toBe(1);
    });

    it('without a range, starts at its recorded start commit, and says so when that is missing', () => {
      const r = check();
      expect(r.status).toBe(2);
      expect(r.out).toMatch(/start commit [0-9a-f]{12} is not in this repository's history/);
    });

    it('fails (status 2) on a range git does not know', () => {
      const r = check('no-such-branch..HEAD');
      expect(r.status).toBe(2);
      expect(r.out).toContain('git log no-such-branch..HEAD failed');
    });
  });

  describe('a message file (the commit-msg hook)', () => {
    it('passes a good message, ignoring comment lines and the diff below the scissors of `git commit -v`', () => {
      const file = messageFile(
        [
          '',
          EXACT_72,
          '',
          'The why.',
          '# Please enter the commit message for your changes. Lines starting',
          "# with '#' will be ignored, and an empty message aborts the commit.",
          '# ------------------------ >8 ------------------------',
          'diff --git a/x b/x',
          '+a line that would be a non-blank second line.',
          '',
        ].join('\n'),
      );
      expect(check(file).status).toBe(0);
      // Comment lines (a commit template's, say) are neither the subject nor its second line.
      const templated = messageFile(
        `# A template comment, longer than seventy-two characters, ending with a period.\nfix: the subject\n# right below it\n`,
      );
      expect(check(templated).status).toBe(0);
    });

    it('fails each rule', () => {
      let r = check(messageFile(`${LONG_73}\n\nwhy\n# a comment\n`));
      expect(r.status).toBe(1);
      expect(r.out).toContain('subject is 73 characters (at most 72)');

      r = check(messageFile('fix: runs on\nonto the second line\n'));
      expect(r.status).toBe(1);
      expect(r.out).toContain('second line is not blank');

      r = check(messageFile('fix: ends with a period.\n'));
      expect(r.status).toBe(1);
      expect(r.out).toContain('subject ends with a period');
    });

    it('lets git handle an empty message, and passes fixup! subjects (squashed before main)', () => {
      expect(check(messageFile('# only comments\n\n')).status).toBe(0);
      // `git commit -v` left empty: the diff below the scissors is not a message either.
      expect(check(messageFile('\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n+x.\n')).status).toBe(0);
      expect(check(messageFile(`fixup! ${EXACT_72}\n`)).status).toBe(0);
    });

    it('refuses a bad commit and lets a good one and a long merge subject through, as a hook', () => {
      // The hook finds the script at scripts/ of the work tree, as in this repository.
      mkdirSync(join(dir, 'scripts/git-hooks'), { recursive: true });
      copyFileSync(SCRIPT, join(dir, 'scripts/check-commit-messages.js'));
      copyFileSync(join(ROOT, 'scripts/git-hooks/commit-msg'), join(dir, 'scripts/git-hooks/commit-msg'));
      chmodSync(join(dir, 'scripts/git-hooks/commit-msg'), 0o755);
      git('config', 'core.hooksPath', 'scripts/git-hooks');
      const gitCommit = (...args: string[]) =>
        spawnSync('git', ['commit', '--allow-empty', ...args], { cwd: dir, env: env(), encoding: 'utf8' });
      const before = git('rev-parse', 'HEAD');

      const refused = gitCommit('-m', 'fix: a message with a period.');
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('subject ends with a period');
      expect(git('rev-parse', 'HEAD')).toBe(before);

      expect(gitCommit('-m', LONG_73).status).not.toBe(0);
      expect(gitCommit('-m', 'fix: two lines\nwith no blank between').status).not.toBe(0);
      expect(git('rev-parse', 'HEAD')).toBe(before);

      expect(gitCommit('-m', 'fix: a good subject', '-m', 'The why.').status).toBe(0);
      expect(git('log', '-1', '--format=%s')).toBe('fix: a good subject');

      git('checkout', '-q', '-b', 'a-branch-with-a-name-long-enough-to-make-the-merge-subject-too-long');
      expect(gitCommit('-m', 'feat: on the branch').status).toBe(0);
      git('checkout', '-q', 'main');
      expect(gitCommit('-m', 'fix: on main').status).toBe(0);
      // git merge runs commit-msg too; its default subject here is over 72 characters.
      const merge = spawnSync(
        'git',
        ['merge', '--no-ff', '--no-edit', 'a-branch-with-a-name-long-enough-to-make-the-merge-subject-too-long'],
        { cwd: dir, env: env(), encoding: 'utf8' },
      );
      expect(merge.status).toBe(0);
      expect(git('log', '-1', '--format=%s').length).toBeGreaterThan(72);
    });
  });
});
