import { parse } from 'yaml';
import { readRepoFile } from './repo';

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  ports?: string[];
  [key: string]: any;
}

/** docker-compose.yml with its YAML anchors and merge keys (`<<`) resolved, as compose does. */
export function loadCompose(): { services: Record<string, ComposeService> } {
  return parse(readRepoFile('docker-compose.yml'), { merge: true });
}

/** The app a compose service runs (`node apps/<app>/dist/main.js`), if it runs one. */
export function composeApp(service: ComposeService): string | undefined {
  const [node, entry] = service.command ?? [];
  return node === 'node' ? /^apps\/([^/]+)\/dist\/main\.js$/.exec(entry ?? '')?.[1] : undefined;
}

/** Compose durations ("35s", "1m30s") in seconds. */
export function durationSeconds(value: string | undefined): number {
  if (!value) return 10; // compose's default
  let total = 0;
  const seconds: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  for (const [, n, unit] of value.matchAll(/([0-9.]+)(ms|h|m|s)/g)) total += Number(n) * seconds[unit];
  return total;
}
