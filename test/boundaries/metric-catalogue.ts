import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { MetricDefinition, MetricKind } from '@mapi/contracts';

export interface SourceFile {
  path: string;
  text: string;
}

const KIND_OF: Record<string, MetricKind> = {
  Counter: 'counter',
  ObservableCounter: 'counter',
  Histogram: 'histogram',
  Gauge: 'gauge',
  ObservableGauge: 'gauge',
  UpDownCounter: 'gauge',
  ObservableUpDownCounter: 'gauge',
};

/** Production sources of apps/ and libs/ (no tests, no build output). */
export function productionSources(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (['node_modules', 'dist', 'generated'].includes(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec|d)\.ts$/.test(name))
        out.push({ path: relative(root, path), text: readFileSync(path, 'utf8') });
    }
  };
  for (const top of ['apps', 'libs']) visit(join(root, top));
  return out;
}

/**
 * Problems of the code against the metric catalogue, [] when none: every instrument is created
 * under `METRICS.<key>.name` (not a string of its own), with the creation call of the catalogued
 * kind, and every catalogued metric is created somewhere.
 */
export function catalogueProblems(files: SourceFile[], catalogue: Record<string, MetricDefinition>): string[] {
  const problems: string[] = [];
  const created = new Set<string>();
  for (const file of files) {
    for (const m of file.text.matchAll(
      /\.create(Counter|ObservableCounter|Histogram|Gauge|ObservableGauge|UpDownCounter|ObservableUpDownCounter)\(\s*([^,)]*)/g,
    )) {
      const [, call, arg] = m;
      const key = /^METRICS\.(\w+)\.name$/.exec(arg.trim())?.[1];
      if (!key || !catalogue[key]) {
        problems.push(
          `${file.path}: create${call}(${arg.trim()}) is not named from METRICS (libs/contracts/src/metrics/metric-catalogue.ts)`,
        );
        continue;
      }
      created.add(key);
      if (catalogue[key].kind !== KIND_OF[call])
        problems.push(`${file.path}: METRICS.${key} is a ${catalogue[key].kind}, created with create${call}`);
    }
  }
  for (const key of Object.keys(catalogue))
    if (!created.has(key)) problems.push(`METRICS.${key} (${catalogue[key].name}): no instrument creates it`);
  return problems;
}
