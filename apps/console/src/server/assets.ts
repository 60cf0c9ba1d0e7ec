import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One built file, kept in memory with its gzip form (the whole console is a few hundred KB). */
export interface Asset {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
  /** Vite's hashed files (assets/…) never change under their name. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.map']);

/** Every file under `dir` by its URL path below the console's base ("index.html", "assets/x-abc.js"). */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const visit = (path: string) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) {
        visit(file);
        continue;
      }
      const key = relative(dir, file).split(sep).join('/');
      const body = readFileSync(file);
      const ext = extname(name);
      assets.set(key, {
        body,
        gzipped: COMPRESSIBLE.has(ext) && body.length > 512 ? gzipSync(body, { level: 9 }) : null,
        type: TYPES[ext] ?? 'application/octet-stream',
        immutable: key.startsWith('assets/'),
      });
    }
  };
  visit(dir);
  if (!assets.has('index.html')) throw new Error(`no index.html in ${dir}: build the console first (scripts/build.sh)`);
  return assets;
}
