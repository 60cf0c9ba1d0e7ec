import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Runs the generators as an author would (`nx g @mapi/generators:…`) in a scratch copy of the
 * workspace, then type-checks what they made and runs the generated specs there, together with a
 * check that the new routes are in the OpenAPI document and every subject has its handler line.
 */
jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '../../..');
const COPIED = [
  'package.json',
  'nx.json',
  'tsconfig.base.json',
  'tsconfig.json',
  'jest.config.js',
  '.swcrc',
  'eslint.config.mjs',
  '.prettierrc.json',
  '.prettierignore',
  'docker-compose.yml',
  'apps',
  'libs',
  'tools',
  'prisma/schema',
  'deploy',
  'test/boundaries',
];

describe('nx g @mapi/generators:service and :operation in a scratch workspace', () => {
  let scratch: string;
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, {
      cwd: scratch,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true' },
      encoding: 'utf8',
      stdio: 'pipe',
    });
  const nxg = (generator: string, ...options: string[]) =>
    run('node', [join(scratch, 'node_modules/nx/dist/bin/nx.js'), 'g', `@mapi/generators:${generator}`, ...options, '--no-interactive']);
  const read = (path: string) => readFileSync(join(scratch, path), 'utf8');

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'mapi-generators-'));
    for (const path of COPIED) {
      cpSync(join(ROOT, path), join(scratch, path), { recursive: true, filter: (src) => !/[/\\](dist|node_modules|\.nx)$/.test(src) });
    }
    // Hard links: a second copy of node_modules in no time and no space (its workspace links are relative).
    execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(scratch, 'node_modules')]);
    nxg('service', '--name=billing', '--description=invoices of an organization');
    nxg('operation', '--service=billing', '--name=get-invoice', '--path=/invoices/{invoice_id}', '--phone=none');
    nxg('operation', '--service=inbox', '--name=archive-note', '--method=POST', '--path=/notes/{note_id}/archive', '--tag=chats');
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('makes the service: app, feature library with tags, tables file, deployment, listed where services are', () => {
    for (const file of [
      'apps/billing/src/main.ts',
      'apps/billing/src/instrument.ts',
      'libs/billing-feature/src/bootstrap.ts',
      'deploy/base/apps/billing/deployment.yaml',
    ]) {
      expect(existsSync(join(scratch, file))).toBe(true);
    }
    expect(JSON.parse(read('libs/billing-feature/project.json')).tags).toEqual(['scope:billing', 'type:feature']);
    expect(JSON.parse(read('apps/billing/project.json')).tags).toEqual(['scope:billing', 'type:app']);
    expect(read('prisma/schema/billing.prisma')).toMatch(/^\/\/ owner: billing$/m);
    expect(read('deploy/base/kustomization.yaml')).toMatch(/^ {2}- apps\/billing$/m);
    expect(read('deploy/components/monitoring/metrics-services.yaml')).toContain('name: billing-metrics');
    expect(read('docker-compose.yml')).toContain('command: ["node", "apps/billing/dist/main.js"]');
    expect(read('eslint.config.mjs')).toMatch(/SERVICE_SCOPES = \[[^\]]*'billing',/);
    expect(read('libs/contracts/src/routes.ts')).toContain('...BILLING_ROUTES');
  });

  it('makes each operation: contract exported and routed, use case, handler-table line', () => {
    expect(read('libs/contracts/src/inbox/index.ts')).toContain("export * from './archive-note/archive-note.contract';");
    expect(read('libs/contracts/src/inbox/index.ts')).toMatch(/ArchiveNoteRoute,\n\];/);
    expect(read('libs/inbox-feature/src/inbox.handlers.ts')).toMatch(/serve\(ArchiveNoteRpc, \(\) => new ArchiveNote\(\)\),\n\];/);
    expect(read('libs/contracts/src/billing/index.ts')).toContain('= [GetInvoiceRoute]');
    expect(read('libs/billing-feature/src/billing.handlers.ts')).toContain('= [serve(GetInvoiceRpc, () => new GetInvoice())]');
  });

  it('formats what it made and changed as `npm run lint` checks it (Prettier, the repository config)', () => {
    const made = [
      'apps/billing',
      'libs/billing-feature',
      'libs/contracts/src/billing',
      'libs/contracts/src/routes.ts',
      'libs/contracts/src/inbox/index.ts',
      'libs/contracts/src/inbox/archive-note',
      'libs/inbox-feature/src/inbox.handlers.ts',
      'libs/inbox-feature/src/usecases/archive-note',
      'eslint.config.mjs',
    ];
    expect(run('node', [join(scratch, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', ...made])).toBe('');
  });

  it('type-checks what it made and passes the generated specs, the routes in the OpenAPI document', () => {
    writeFileSync(
      join(scratch, 'test/boundaries/generated.spec.ts'),
      `import { ROUTES, buildOpenApi } from '@mapi/contracts';
import { BILLING_HANDLERS } from '@mapi/billing-feature';

it('lists the generated operations in the OpenAPI document', () => {
  const doc = buildOpenApi(ROUTES, { serverUrl: 'http://x/v1', version: '0' }) as { paths: Record<string, Record<string, { operationId: string }>> };
  expect(doc.paths['/invoices/{invoice_id}'].get.operationId).toBe('getInvoice');
  expect(doc.paths['/notes/{note_id}/archive'].post.operationId).toBe('archiveNote');
  expect(BILLING_HANDLERS.map((line) => line.contract.subject)).toEqual(['billing.v1.get-invoice']);
});
`,
    );
    writeFileSync(
      join(scratch, 'tsconfig.generated.json'),
      JSON.stringify({
        extends: './tsconfig.base.json',
        compilerOptions: { noEmit: true },
        files: [
          // The new service's table has a generated line, so it checks the line's use case against its
          // contract as inbox.handlers.ts would (type-checking all of inbox-feature would double the time).
          'apps/billing/src/main.ts',
          'libs/billing-feature/src/index.ts',
          'libs/billing-feature/src/usecases/get-invoice/get-invoice.usecase.spec.ts',
          'libs/inbox-feature/src/usecases/archive-note/archive-note.usecase.spec.ts',
          'test/boundaries/generated.spec.ts',
        ],
      }),
    );
    run('node', [join(scratch, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.generated.json']);
    writeFileSync(
      join(scratch, 'jest.generated.js'),
      // The unit tier alone (the generated specs need no database), not crawling node_modules.
      `const { projects } = require('./jest.config.js');\nmodule.exports = { ...projects.find((p) => p.displayName === 'unit'), roots: ['<rootDir>/libs', '<rootDir>/test/boundaries'], maxWorkers: 2 };\n`,
    );
    const out = run('node', [
      join(scratch, 'node_modules/jest/bin/jest.js'),
      '-c',
      'jest.generated.js',
      '--ci',
      '--runTestsByPath',
      'libs/billing-feature/src/usecases/get-invoice/get-invoice.usecase.spec.ts',
      'libs/inbox-feature/src/usecases/archive-note/archive-note.usecase.spec.ts',
      'test/boundaries/generated.spec.ts',
    ]);
    expect(out).toBe('');
  });
});
