import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

/** Apps that are command-line tools, not long-running processes: no Deployment, no compose service. */
export const CLI_APPS = ['admin-cli'];

/** Every folder of apps/ that is a project (has a package.json), read at test time. */
export function allApps(): string[] {
  const dir = join(ROOT, 'apps');
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .sort();
}

/** The apps that run as services or workers: every app but the CLIs. */
export const runnableApps = (): string[] => allApps().filter((app) => !CLI_APPS.includes(app));

export const readRepoFile = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Files under `dir` (repository-relative) whose name passes `keep`, skipping node_modules and dist. */
export function walkFiles(dir: string, keep: (path: string) => boolean): string[] {
  const start = join(ROOT, dir);
  if (!existsSync(start)) return [];
  const out: string[] = [];
  const visit = (abs: string) => {
    for (const name of readdirSync(abs)) {
      if (name === 'node_modules' || name === 'dist') continue;
      const path = join(abs, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (keep(relative(ROOT, path))) out.push(relative(ROOT, path));
    }
  };
  visit(start);
  return out.sort();
}
