import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { registeredRpcs } from '@mapi/contracts';
import { streamNames } from '@mapi/events';
import { readOwnedTables } from './table-ownership';

/**
 * docs/architecture.md opens with a system map in Mermaid (the block marked `%% system-map`). It is
 * drawn by hand, so this test keeps it true: every app, RPC service, JetStream stream and table owner
 * that exists in code must be in it. Each failure says what to add to the diagram.
 */
const ROOT = join(__dirname, '..', '..');
const ARCHITECTURE = 'docs/architecture.md';

/** The Mermaid source of the block that carries the `%% system-map` marker. */
export function systemMap(markdown: string): string {
  const blocks = [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]);
  const map = blocks.find((b) => /^%% system-map$/m.test(b));
  if (!map) throw new Error(`${ARCHITECTURE} has no \`\`\`mermaid block with a "%% system-map" line`);
  return map;
}

/** Node id of a name in the diagram: Mermaid ids take no '-'. */
export const nodeId = (name: string) => name.replace(/-/g, '_');

/** Whether the source defines a node with this id (`id[...]`, `id(...)`, `id{...}`, `id([...])`). */
export const definesNode = (source: string, id: string) => new RegExp(String.raw`^\s*${id}\s*[[({]`, 'm').test(source);

export interface CodeFacts {
  apps: string[];
  /** Each RPC service of the registry with its subject prefixes (`chats.v1`). */
  services: Map<string, Set<string>>;
  /** Stream names as the diagram writes them for the namespace `ns` (`NS_INGEST`). */
  streams: string[];
  /** Each owner of prisma/schema with its tables. */
  owners: Map<string, string[]>;
}

export function codeFacts(root: string): CodeFacts {
  const appsDir = join(root, 'apps');
  const apps = readdirSync(appsDir).filter(
    (d) => statSync(join(appsDir, d)).isDirectory() && readdirSync(join(appsDir, d)).includes('project.json'),
  );
  const services = new Map<string, Set<string>>();
  for (const rpc of registeredRpcs()) {
    const prefix = rpc.subject.split('.').slice(0, 2).join('.');
    services.set(rpc.service, (services.get(rpc.service) ?? new Set()).add(prefix));
  }
  const owners = new Map<string, string[]>();
  for (const t of readOwnedTables(join(root, 'prisma', 'schema'))) owners.set(t.owner, [...(owners.get(t.owner) ?? []), t.table]);
  return { apps, services, streams: Object.values(streamNames('ns')), owners };
}

/** What the diagram lacks, one line each, saying what to draw. */
export function missingFromDiagram(source: string, facts: CodeFacts): string[] {
  const missing: string[] = [];
  for (const app of facts.apps) {
    if (!definesNode(source, nodeId(app)))
      missing.push(`app apps/${app}: add a node \`${nodeId(app)}["${app}<br/>what it serves"]\` and its edges`);
  }
  for (const [service, prefixes] of facts.services) {
    for (const prefix of prefixes) {
      if (!source.includes(`${prefix}.*`))
        missing.push(`RPC service "${service}": write its subjects \`${prefix}.*\` in the label of the app that serves them`);
    }
  }
  for (const stream of facts.streams) {
    if (!definesNode(source, stream))
      missing.push(
        `JetStream stream ${stream} (libs/events streamNames): add a node \`${stream}[("${stream}")]\` with its publishers and consumers`,
      );
  }
  for (const [owner, tables] of facts.owners) {
    const id = `tables_${nodeId(owner)}`;
    const line = new RegExp(String.raw`^\s*${id}\s*[[({](.*)$`, 'm').exec(source)?.[1];
    if (line === undefined) {
      missing.push(`table owner "${owner}" (prisma/schema): add a node \`${id}[("${owner}: ${tables.join(', ')}")]\` linked to its app`);
      continue;
    }
    const absent = tables.filter((t) => !new RegExp(String.raw`\b${t}\b`).test(line));
    if (absent.length) missing.push(`table owner "${owner}": add ${absent.join(', ')} to the node ${id}`);
  }
  return missing;
}

describe('the system map in docs/architecture.md', () => {
  const source = systemMap(readFileSync(join(ROOT, ARCHITECTURE), 'utf8'));
  const facts = codeFacts(ROOT);

  it('reads the code it is checked against', () => {
    expect(facts.apps).toEqual(expect.arrayContaining(['api-gateway', 'chats']));
    expect(facts.services.get('chats')).toEqual(new Set(['chats.v1']));
    expect(facts.streams).toEqual(['NS_INGEST', 'NS_EVENTS']);
    expect(facts.owners.get('chats')).toContain('messages');
  });

  it('draws every app, RPC service, JetStream stream and table owner of the code', () => {
    const missing = missingFromDiagram(source, facts);
    if (missing.length)
      throw new Error(`${ARCHITECTURE}'s system map (the "%% system-map" Mermaid block) lacks:\n- ${missing.join('\n- ')}`);
  });

  it('fails for what it does not draw', () => {
    const withoutChats = source.replace(/^\s*chats\[.*$/m, '').replace('chats.v1.*', '');
    const more: CodeFacts = {
      ...facts,
      apps: [...facts.apps, 'exporter'],
      streams: [...facts.streams, 'NS_AUDIT'],
      owners: new Map([...facts.owners, ['exporter', ['export_runs']]]),
    };
    expect(missingFromDiagram(withoutChats, more)).toEqual(
      expect.arrayContaining([
        'app apps/chats: add a node `chats["chats<br/>what it serves"]` and its edges',
        'app apps/exporter: add a node `exporter["exporter<br/>what it serves"]` and its edges',
        'RPC service "chats": write its subjects `chats.v1.*` in the label of the app that serves them',
        'JetStream stream NS_AUDIT (libs/events streamNames): add a node `NS_AUDIT[("NS_AUDIT")]` with its publishers and consumers',
        'table owner "exporter" (prisma/schema): add a node `tables_exporter[("exporter: export_runs")]` linked to its app',
      ]),
    );
  });
});
