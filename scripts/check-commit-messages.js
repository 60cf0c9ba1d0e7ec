#!/usr/bin/env node
'use strict';
/**
 * Checks commit messages against the rule of CONTRIBUTING.md ("Commits", issue 38 item 8): a subject
 * line of at most 72 characters saying what changed, the why in the body. A message fails when
 *   - its subject is over 72 characters,
 *   - its subject is followed by a non-blank second line (the body starts after one blank line), or
 *   - its subject ends with a period.
 * Merge commits are exempt.
 *
 *   node scripts/check-commit-messages.js               every commit from START_COMMIT to HEAD
 *   node scripts/check-commit-messages.js main..HEAD    a range, as `git log` takes it
 *   node scripts/check-commit-messages.js .git/COMMIT_EDITMSG
 *                                                       one message file (the commit-msg hook,
 *                                                       scripts/git-hooks/commit-msg)
 *
 * An argument that names an existing file is a message file; anything else is a range. Exit status:
 * 0 when every message follows the rule, 1 when one does not (each offender is listed), 2 on a usage
 * or git error (e.g. a shallow clone without START_COMMIT). Needs the full history for the default
 * range; `npm test` (scripts/test.sh) runs it after ESLint.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, statSync } = require('node:fs');

/**
 * The first commit that follows the rule, where the check starts by default. Before it, subjects were
 * often paragraphs: 423 of the 481 commits before it have subjects over 72 characters, the 40 just
 * before it 215 on average. It came after a two-day pause (2026-11-27 01:57 to 2026-11-28 23:50),
 * and from it on every subject is at most 72 characters (65 on average) with the why in the body.
 * Checking from here keeps the check green on history nobody will rewrite and catches every new
 * offender.
 */
const START_COMMIT = '6af6af348a7080741a0122909593190be5bb0d64'; // 2026-11-28 "contracts: the import batch shape every owner's import RPC shares"

const MAX_SUBJECT = 72;
const RULE = 'CONTRIBUTING.md, "Commits": subject of at most 72 characters, no final period, blank line before the body';

function git(args, options = {}) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024, ...options });
}

/** The problems of one message (its text as git stores it), empty when it follows the rule. */
function problemsOf(message) {
  const lines = message.replace(/\r\n/g, '\n').split('\n');
  const subject = (lines[0] ?? '').trimEnd();
  const problems = [];
  const length = [...subject].length; // characters, not UTF-16 units or bytes: subjects use "—" and "→"
  if (length > MAX_SUBJECT) problems.push(`subject is ${length} characters (at most ${MAX_SUBJECT})`);
  if (lines.length > 1 && lines[1].trim() !== '')
    problems.push('second line is not blank (the subject is one line; a blank line, then the body)');
  if (subject.endsWith('.')) problems.push('subject ends with a period');
  return problems;
}

/**
 * A message file as the commit-msg hook gets it: before git's own clean-up, so with the comment lines
 * of the template and, for `git commit -v`, the diff below the scissors line. Drop those, and the
 * leading blank lines and trailing whitespace git removes as well.
 */
function cleanedMessageFile(path) {
  let comment = '#';
  try {
    const configured = git(['config', 'core.commentChar']).trim();
    if (configured.length === 1) comment = configured; // "auto" picks a character per message: keep "#"
  } catch {
    // unset (or not in a repository): git's default
  }
  const lines = readFileSync(path, 'utf8').replace(/\r\n/g, '\n').split('\n');
  const scissors = lines.indexOf(`${comment} ------------------------ >8 ------------------------`);
  const kept = (scissors === -1 ? lines : lines.slice(0, scissors))
    .filter((line) => !line.startsWith(comment))
    .map((line) => line.trimEnd());
  while (kept.length && kept[0] === '') kept.shift();
  return kept.join('\n').trimEnd();
}

function inMerge() {
  try {
    git(['rev-parse', '-q', '--verify', 'MERGE_HEAD']);
    return true;
  } catch {
    return false;
  }
}

function report(offenders, what) {
  console.error(`check-commit-messages: ${offenders.length} ${what} break${offenders.length === 1 ? 's' : ''} the rule (${RULE}):`);
  for (const { label, subject, problems } of offenders) {
    console.error(`  ${label}${label ? ' ' : ''}${JSON.stringify(subject.length > 100 ? `${subject.slice(0, 100)}…` : subject)}`);
    for (const problem of problems) console.error(`    - ${problem}`);
  }
}

function checkFile(path) {
  // A merge in progress (git merge runs commit-msg too) is exempt, as merge commits are in a range.
  if (inMerge()) return 0;
  const message = cleanedMessageFile(path);
  // An empty message: git aborts the commit itself, with its own explanation.
  if (message === '') return 0;
  const subject = message.split('\n')[0];
  // `git commit --fixup/--squash` subjects are "fixup! <subject>": they are squashed away by
  // `git rebase --autosquash` before they reach main (where the range check would catch them).
  if (/^(fixup|squash|amend)! /.test(subject)) return 0;
  const problems = problemsOf(message);
  if (problems.length === 0) return 0;
  report([{ label: '', subject, problems }], 'commit message');
  console.error('(your message is kept in .git/COMMIT_EDITMSG; `git commit -e -F .git/COMMIT_EDITMSG` edits it again)');
  return 1;
}

function checkRange(range) {
  let start = '';
  if (range === undefined) {
    try {
      git(['cat-file', '-e', `${START_COMMIT}^{commit}`]);
    } catch {
      console.error(
        `check-commit-messages: the start commit ${START_COMMIT.slice(0, 12)} is not in this repository's history ` +
          '(a shallow clone? `git fetch --unshallow`), or pass a range, e.g. `origin/main..HEAD`',
      );
      return 2;
    }
    start = START_COMMIT;
    // From the start commit itself: everything HEAD reaches that its parent does not.
    range = `${START_COMMIT}^..HEAD`;
  }
  let out;
  try {
    // -z: one NUL between commits; %B: the raw message, subject line first, as it was written.
    out = git(['log', '--no-merges', '-z', '--format=%H%n%B', range, '--']);
  } catch (error) {
    console.error(`check-commit-messages: git log ${range} failed: ${(error.stderr || error.message).trim()}`);
    return 2;
  }
  const commits = out.split('\0').filter((entry) => entry.trim() !== '');
  const offenders = [];
  for (const entry of commits) {
    const newline = entry.indexOf('\n');
    const hash = entry.slice(0, newline);
    const message = entry.slice(newline + 1).replace(/\n+$/, '');
    const problems = problemsOf(message);
    if (problems.length) offenders.push({ label: hash.slice(0, 10), subject: message.split('\n')[0], problems });
  }
  if (offenders.length) {
    report(offenders, offenders.length === 1 ? 'commit' : 'commits');
    console.error('Reword them before they reach main: `git rebase -i <base>`, "reword" on each.');
    return 1;
  }
  const since = start ? `since ${start.slice(0, 10)} (the first that followed the rule)` : `in ${range}`;
  console.log(
    `check-commit-messages: ${commits.length} commit${commits.length === 1 ? '' : 's'} ${since} follow the commit message rule (merges exempt)`,
  );
  return 0;
}

function main(argv) {
  if (argv.length > 1 || argv[0] === '-h' || argv[0] === '--help') {
    console.error('usage: node scripts/check-commit-messages.js [<range> | <message file>]');
    return argv.length > 1 ? 2 : 0;
  }
  const [arg] = argv;
  if (arg !== undefined && existsSync(arg) && statSync(arg).isFile()) return checkFile(arg);
  return checkRange(arg);
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { problemsOf, START_COMMIT, MAX_SUBJECT };
