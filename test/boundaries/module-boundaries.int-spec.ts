import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Proves that the module boundaries in eslint.config.mjs bite: code snippets are linted, through
 * ESLint's Node API and the real root config, as if they were files inside real projects, and
 * forbidden imports must come back as @nx/enforce-module-boundaries errors while allowed ones must
 * not. The linting runs in a plain Node child process (test/boundaries/lint-snippets.mjs) because
 * Jest's module VM cannot import() an ES-module flat config.
 *
 * The child gets an empty NX_WORKSPACE_DATA_DIRECTORY, i.e. no cached project graph, like a fresh
 * clone or CI checkout. The rule silently skips itself without one, so passing here also proves the
 * config builds the graph itself (in-process: NX_DAEMON=false, no network).
 */

const ROOT = resolve(__dirname, '..', '..');
const RULE = '@nx/enforce-module-boundaries';

interface LintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
  line: number;
  fatal: boolean;
}
type RuleEntry = [severity: number, options: { depConstraints: { sourceTag: string; onlyDependOnLibsWithTags: string[] }[] }];
interface Output {
  cases: { filePath: string; messages: LintMessage[] }[];
  configs: { filePath: string; rule: RuleEntry | null }[];
  files: { filePath: string; messages: LintMessage[] }[];
}

interface Case {
  name: string;
  filePath: string;
  code: string;
}
interface Violation extends Case {
  message: RegExp;
}

/** The lint rule that keeps bench/ out of libraries' internals (eslint.config.mjs, the bench block). */
const DEEP_PATH_RULE = 'no-restricted-syntax';

/** bench/ may use every scope's feature, platform, contracts, data and testing libraries, through their index. */
const BENCH_THROUGH_INDEXES: Case = {
  name: 'bench requiring feature, platform, contracts, data and testing libraries of several scopes through their index',
  filePath: 'bench/chats/x.js',
  code: [
    "'use strict';",
    "const path = require('node:path');",
    "const { CHATS_HANDLERS } = require('@mapi/chats-feature');",
    "const { ApplyIngest } = require('@mapi/chats-feature/internals');",
    "const { SendQueues } = require('@mapi/queue-feature/internals');",
    "const { createLogger } = require('@mapi/platform');",
    "const { startTelemetry } = require('@mapi/platform/telemetry');",
    "const { ListChatsRpc } = require('@mapi/contracts');",
    "const { createPrismaClient } = require('@mapi/db');",
    "const { ensureStreams } = require('@mapi/events');",
    "const { createTestDatabase } = require('@mapi/testing');",
    "const before = require(path.join(process.env.BENCH_BEFORE_ROOT, 'libs/chats-feature/dist/index.js'));",
    'module.exports = { CHATS_HANDLERS, ApplyIngest, SendQueues, createLogger, startTelemetry, ListChatsRpc, createPrismaClient, ensureStreams, createTestDatabase, before };',
    '',
  ].join('\n'),
};

const onlyTags = (sourceTag: string) => new RegExp(`A project tagged with "${sourceTag}" can only depend on libs tagged with`);

const violations: Violation[] = [
  {
    name: 'a feature importing another scope’s feature (chats-feature → gateway-feature)',
    filePath: 'libs/chats-feature/src/x.ts',
    code: "import { bootstrapGateway } from '@mapi/gateway-feature';\nexport { bootstrapGateway };\n",
    message: /A project tagged with "scope:chats" can only depend on libs tagged with "scope:chats", "scope:shared"/,
  },
  {
    name: 'an app importing another app by package name (api-gateway → @mapi/chats-app)',
    filePath: 'apps/api-gateway/src/x.ts',
    code: "import '@mapi/chats-app';\n",
    message: /Imports of apps are forbidden/,
  },
  {
    name: 'an app importing another app by relative path (api-gateway → apps/chats)',
    filePath: 'apps/api-gateway/src/x.ts',
    code: "import '../../chats/src/main';\n",
    message: /Projects cannot be imported by a relative or absolute path/,
  },
  {
    name: 'a feature importing an app (chats-feature → @mapi/api-gateway)',
    filePath: 'libs/chats-feature/src/x.ts',
    code: "import '@mapi/api-gateway';\n",
    message: /Imports of apps are forbidden/,
  },
  {
    name: 'an app importing another scope’s feature (api-gateway → chats-feature)',
    filePath: 'apps/api-gateway/src/x.ts',
    code: "import { bootstrapChats } from '@mapi/chats-feature';\nexport { bootstrapChats };\n",
    message: /A project tagged with "scope:gateway" can only depend on libs tagged with "scope:gateway", "scope:shared"/,
  },
  {
    name: 'production code importing @mapi/testing (libs/chats-feature/src/x.ts)',
    filePath: 'libs/chats-feature/src/x.ts',
    code: "import { createTestDatabase } from '@mapi/testing';\nexport { createTestDatabase };\n",
    message: onlyTags('type:feature'),
  },
  {
    name: 'production app code importing @mapi/testing (apps/admin-cli/src/x.ts)',
    filePath: 'apps/admin-cli/src/x.ts',
    code: "import { createTestDatabase } from '@mapi/testing';\nexport { createTestDatabase };\n",
    message: onlyTags('type:app'),
  },
  {
    name: 're-exporting db from contracts (export * from)',
    filePath: 'libs/contracts/src/x.ts',
    code: "export * from '@mapi/db';\n",
    message: onlyTags('type:contracts'),
  },
  {
    name: 'contracts importing platform',
    filePath: 'libs/contracts/src/x.ts',
    code: "import * as platform from '@mapi/platform';\nexport { platform };\n",
    // platform already depends on contracts, so the rule reports the cycle before the tag check.
    message: /Circular dependency between "contracts" and "platform"|A project tagged with "type:contracts"/,
  },
  {
    name: 'contracts importing db (type:contracts → type:data)',
    filePath: 'libs/contracts/src/x.ts',
    code: "import * as db from '@mapi/db';\nexport { db };\n",
    message: /A project tagged with "type:contracts" can only depend on libs tagged with "type:contracts"/,
  },
  {
    name: 'platform importing db (type:platform → type:data)',
    filePath: 'libs/platform/src/x.ts',
    code: "import * as db from '@mapi/db';\nexport { db };\n",
    message: onlyTags('type:platform'),
  },
  {
    name: 'db importing platform (type:data → type:platform)',
    filePath: 'libs/db/src/x.ts',
    code: "import * as platform from '@mapi/platform';\nexport { platform };\n",
    message: onlyTags('type:data'),
  },
  {
    name: 'testing importing a feature (type:testing → type:feature)',
    filePath: 'libs/testing/src/x.ts',
    code: "import * as chats from '@mapi/chats-feature';\nexport { chats };\n",
    // chats-feature's own tests import @mapi/testing, so the rule may report the cycle first.
    message:
      /A project tagged with "type:testing" can only depend on libs tagged with|Circular dependency between "testing" and "chats-feature"/,
  },
  {
    name: 'a spec file importing another scope’s feature (tests keep the scope rules)',
    filePath: 'libs/chats-feature/src/x.spec.ts',
    code: "import { bootstrapGateway } from '@mapi/gateway-feature';\nexport { bootstrapGateway };\n",
    message: /A project tagged with "scope:chats" can only depend on libs tagged with "scope:chats", "scope:shared"/,
  },
  {
    name: 'a require() of another scope’s feature',
    filePath: 'libs/chats-feature/src/x.ts',
    code: "export const gateway = require('@mapi/gateway-feature');\n",
    message: /A project tagged with "scope:chats" can only depend on libs tagged/,
  },
  {
    name: 'a dynamic import() of another scope’s feature',
    filePath: 'libs/chats-feature/src/x.ts',
    code: "export const load = () => import('@mapi/admin-feature');\n",
    message: /A project tagged with "scope:chats" can only depend on libs tagged/,
  },
  {
    name: 'bench requiring an app by package name (bench → @mapi/api-gateway)',
    filePath: 'bench/chats/x.js',
    code: "'use strict';\nmodule.exports = require('@mapi/api-gateway');\n",
    message: /Imports of apps are forbidden/,
  },
  {
    name: 'bench requiring an app by relative path (bench → apps/chats)',
    filePath: 'bench/chats/x.js',
    code: "'use strict';\nmodule.exports = require('../../apps/chats/src/main');\n",
    message: /Projects cannot be imported by a relative or absolute path/,
  },
  {
    name: 'bench requiring a project outside its type rule (type:bench → type:tooling)',
    filePath: 'bench/chats/x.js',
    code: "'use strict';\nmodule.exports = require('@mapi/generators');\n",
    message: onlyTags('type:bench'),
  },
];

const allowed: Case[] = [
  {
    name: 'chats-feature importing contracts, platform, platform/telemetry and db',
    filePath: 'libs/chats-feature/src/x.ts',
    code: [
      "import * as contracts from '@mapi/contracts';",
      "import * as platform from '@mapi/platform';",
      "import * as telemetry from '@mapi/platform/telemetry';",
      "import * as db from '@mapi/db';",
      'export { contracts, platform, telemetry, db };',
      '',
    ].join('\n'),
  },
  {
    name: 'api-gateway app importing its feature and platform',
    filePath: 'apps/api-gateway/src/x.ts',
    code: "import { bootstrapGateway } from '@mapi/gateway-feature';\nimport * as platform from '@mapi/platform';\nexport { bootstrapGateway, platform };\n",
  },
  {
    name: 'chats app importing chats-feature',
    filePath: 'apps/chats/src/x.ts',
    code: "import { bootstrapChats } from '@mapi/chats-feature';\nexport { bootstrapChats };\n",
  },
  {
    name: 'admin-cli app importing admin-feature and db',
    filePath: 'apps/admin-cli/src/x.ts',
    code: "import * as admin from '@mapi/admin-feature';\nimport * as db from '@mapi/db';\nexport { admin, db };\n",
  },
  {
    name: 'platform importing contracts',
    filePath: 'libs/platform/src/x.ts',
    code: "import * as contracts from '@mapi/contracts';\nexport { contracts };\n",
  },
  {
    name: 'testing importing db, platform and contracts',
    filePath: 'libs/testing/src/x.ts',
    code: "import * as db from '@mapi/db';\nimport * as platform from '@mapi/platform';\nimport * as contracts from '@mapi/contracts';\nexport { db, platform, contracts };\n",
  },
  {
    name: 'a feature spec importing @mapi/testing',
    filePath: 'libs/chats-feature/src/x.spec.ts',
    code: "import { createTestDatabase } from '@mapi/testing';\nexport { createTestDatabase };\n",
  },
  {
    name: 'a feature int-spec importing @mapi/testing',
    filePath: 'libs/gateway-feature/src/x.int-spec.ts',
    code: "import { createTestDatabase } from '@mapi/testing';\nexport { createTestDatabase };\n",
  },
  {
    name: 'an app int-spec importing @mapi/testing',
    filePath: 'apps/admin-cli/src/x.int-spec.ts',
    code: "import { createTestDatabase } from '@mapi/testing';\nexport { createTestDatabase };\n",
  },
  {
    name: 'an e2e spec under test/ importing @mapi/testing and @mapi/db',
    filePath: 'test/e2e/x.e2e-spec.ts',
    code: "import { createTestDatabase } from '@mapi/testing';\nimport * as db from '@mapi/db';\nexport { createTestDatabase, db };\n",
  },
  {
    name: 'an e2e test importing a feature library’s internals entry point',
    filePath: 'test/e2e/x.e2e-spec.ts',
    code: "import { MediaTokenService } from '@mapi/media-feature/internals';\nexport { MediaTokenService };\n",
  },
  BENCH_THROUGH_INDEXES,
];

/**
 * bench/ measures a library through its index or its internals entry point: a path into a library's build
 * is an error, and so is the internals entry point in production code (DEEP_PATH_RULE).
 */
const deepPaths: Violation[] = [
  {
    name: 'bench requiring a use case from a feature library’s build (@mapi/chats-feature/dist/…)',
    filePath: 'bench/chats/x.js',
    code: "'use strict';\nmodule.exports = require('@mapi/chats-feature/dist/usecases/list-chats/list-chats.usecase');\n",
    message: /through its index/,
  },
  {
    name: "bench passing a deep path to a require() helper (lib('@mapi/chats-feature/dist/…'))",
    filePath: 'bench/chats/x.js',
    code: "'use strict';\nconst lib = (p) => require(p);\nmodule.exports = lib('@mapi/chats-feature/dist/ingest/apply-ingest.usecase');\n",
    message: /through its index/,
  },
  {
    name: 'bench requiring a file of a library’s build by path (libs/platform/dist/logging/logger.js)',
    filePath: 'bench/chats/x.js',
    code: "'use strict';\nconst path = require('node:path');\nmodule.exports = require(path.join(__dirname, '../../libs/platform/dist/logging/logger.js'));\n",
    message: /through its index/,
  },
  {
    name: 'an app importing a feature library’s internals (apps/chats → @mapi/chats-feature/internals)',
    filePath: 'apps/chats/src/x.ts',
    code: "import { MessageRepository } from '@mapi/chats-feature/internals';\nexport { MessageRepository };\n",
    message: /is for bench\/ and tests/,
  },
  {
    name: 'an app re-exporting its feature’s internals (export * from …/internals)',
    filePath: 'apps/queue/src/x.ts',
    code: "export * from '@mapi/queue-feature/internals';\n",
    message: /is for bench\/ and tests/,
  },
];

const PRODUCTION_FILE = 'libs/chats-feature/src/x.ts';
const TEST_FILE = 'libs/chats-feature/src/x.spec.ts';
const BENCH_FILE = 'bench/chats/x.js';

let dataDir: string;
let out: Output;
let childStdout = '';

function runLinter(input: object): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'lint-snippets.mjs')], {
      cwd: ROOT,
      env: { ...process.env, NX_DAEMON: 'false', NX_WORKSPACE_DATA_DIRECTORY: dataDir, NX_NO_CLOUD: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (childStdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // It lints all of apps/ and libs/ (a minute or more on two busy cores).
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`lint-snippets exited ${code ?? signal}:\n${stderr}\n${childStdout}`));
    });
    child.stdin.end(JSON.stringify(input));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mapi-boundaries-'));
  const outFile = join(dataDir, 'lint-result.json');
  await runLinter({
    cwd: ROOT,
    out: outFile,
    cases: [...violations, ...allowed, ...deepPaths].map(({ filePath, code }) => ({ filePath, code })),
    configFor: [PRODUCTION_FILE, TEST_FILE, BENCH_FILE],
    lintFiles: ['apps', 'libs', 'bench'],
    // Only the boundary rules run: every check below reads their messages (and fatal parse errors,
    // which the parser reports whatever rules run); the config's other rules are for `npm run lint`.
    onlyRule: [RULE, DEEP_PATH_RULE],
  });
  out = JSON.parse(readFileSync(outFile, 'utf8')) as Output;
}, 180_000);

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const boundaryMessages = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === RULE);
const deepPathMessages = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === DEEP_PATH_RULE);
const resultFor = (index: number) => out.cases[index].messages;
const ruleFor = (filePath: string) => out.configs.find((c) => c.filePath === filePath)?.rule ?? null;
const allowedTags = (filePath: string, sourceTag: string) =>
  ruleFor(filePath)?.[1].depConstraints.find((c) => c.sourceTag === sourceTag)?.onlyDependOnLibsWithTags;

describe('module boundaries (@nx/enforce-module-boundaries via eslint.config.mjs)', () => {
  it('ran against a project graph the config built itself (no cached graph was available)', () => {
    expect(childStdout).not.toMatch(/No cached ProjectGraph/);
    expect(existsSync(join(dataDir, 'project-graph.json'))).toBe(true);
  });

  describe('forbidden imports are errors', () => {
    it.each(violations.map((v, i) => ({ ...v, index: i })))('$name', ({ index, message }) => {
      const messages = resultFor(index);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      const boundary = boundaryMessages(messages);
      expect(boundary).toHaveLength(1);
      expect(boundary[0].severity).toBe(2);
      expect(boundary[0].message).toMatch(message);
    });
  });

  describe('allowed imports produce no boundary error', () => {
    it.each(allowed.map((a, i) => ({ ...a, index: violations.length + i })))('$name', ({ index }) => {
      const messages = resultFor(index);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      expect(boundaryMessages(messages)).toEqual([]);
      expect(deepPathMessages(messages)).toEqual([]);
    });
  });

  describe('bench/ reaching into a library’s build is an error', () => {
    it.each(deepPaths.map((v, i) => ({ ...v, index: violations.length + allowed.length + i })))('$name', ({ index, message }) => {
      const messages = resultFor(index);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      expect(boundaryMessages(messages)).toEqual([]);
      const deep = deepPathMessages(messages);
      expect(deep).toHaveLength(1);
      expect(deep[0].severity).toBe(2);
      expect(deep[0].message).toMatch(message);
    });
  });

  it('bench/ (type:bench, scope:bench) may use every library type but apps and tooling, of every scope', () => {
    expect(ruleFor(BENCH_FILE)?.[0]).toBe(2);
    expect(allowedTags(BENCH_FILE, 'type:bench')).toEqual(['type:feature', 'type:platform', 'type:contracts', 'type:data', 'type:testing']);
    const benchScopes = allowedTags(BENCH_FILE, 'scope:bench');
    expect(benchScopes).toEqual(expect.arrayContaining(['scope:shared', 'scope:chats', 'scope:queue', 'scope:media', 'scope:automation']));
    expect(benchScopes).not.toContain('scope:bench');
  });

  it('is an error-level rule; only test files may depend on type:testing', () => {
    expect(ruleFor(PRODUCTION_FILE)?.[0]).toBe(2);
    expect(ruleFor(TEST_FILE)?.[0]).toBe(2);
    for (const sourceTag of ['type:app', 'type:feature', 'type:platform', 'type:contracts', 'type:data']) {
      expect(allowedTags(PRODUCTION_FILE, sourceTag)).toBeDefined();
      expect(allowedTags(PRODUCTION_FILE, sourceTag)).not.toContain('type:testing');
      expect(allowedTags(TEST_FILE, sourceTag)).toContain('type:testing');
    }
    expect(allowedTags(PRODUCTION_FILE, 'type:contracts')).toEqual(['type:contracts']);
    expect(allowedTags(PRODUCTION_FILE, 'type:data')).toEqual(['type:data', 'type:contracts']);
  });

  it('confines every service scope, including future ones, to itself and scope:shared', () => {
    const scopes = [
      'gateway',
      'chats',
      'admin',
      'phones',
      'groups',
      'queue',
      'knowledge-base',
      'webhooks',
      'media',
      'inbox',
      'members',
      'automation',
      'importer',
    ];
    for (const file of [PRODUCTION_FILE, TEST_FILE]) {
      for (const scope of scopes) {
        expect(allowedTags(file, `scope:${scope}`)).toEqual([`scope:${scope}`, 'scope:shared']);
      }
      expect(allowedTags(file, 'scope:shared')).toEqual(['scope:shared']);
    }
  });

  it('the current apps/, libs/ and bench/ respect the boundaries', () => {
    expect(out.files.length).toBeGreaterThan(10);
    expect(out.files.some((f) => f.filePath.startsWith(join(ROOT, 'bench') + '/'))).toBe(true);
    const violationsInTree = out.files.flatMap((f) =>
      [...boundaryMessages(f.messages), ...deepPathMessages(f.messages)].map(
        (m) => `${f.filePath.slice(ROOT.length + 1)}:${m.line} ${m.message}`,
      ),
    );
    expect(violationsInTree).toEqual([]);
  });
});
