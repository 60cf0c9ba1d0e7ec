import { readRepoFile } from './repo';

/** The apps' own shutdown deadline, read from libs/platform/src/shutdown.ts (`deadlineMs = 25_000`). */
export function appShutdownDeadlineSeconds(): number {
  const match = /deadlineMs\s*=\s*([0-9_]+)/.exec(readRepoFile('libs/platform/src/shutdown.ts'));
  if (!match) throw new Error('libs/platform/src/shutdown.ts: no `deadlineMs = <ms>` default found');
  return Number(match[1].replace(/_/g, '')) / 1000;
}
