// Root ESLint flat config. Its main job: module boundaries enforced by Nx tags, not just hoped for.
//
// Every project's project.json carries two tags, and @nx/enforce-module-boundaries checks each import
// against both axes (an import must satisfy every constraint whose sourceTag the importer has):
//   type:*  — layering:  app → feature → platform → contracts; data (libs/db) only on data;
//             testing (libs/testing) only from test files.
//   scope:* — vertical slices: a service's projects see their own scope plus scope:shared, never
//             another service's.
//   bench/  — a project too (type:bench, scope:bench): it measures every service, so it may use any
//             scope's feature, platform, contracts, data and testing libraries, through their index or
//             their internals entry point (never an app, never a path into a library's build: see the
//             bench block below; docs/decisions/0085).
// Apps can never be imported at all (the rule's built-in "Imports of apps are forbidden"), and a
// relative path into another project is an error as well. test/boundaries/module-boundaries.int-spec.ts
// proves all of this bites.
import nx from '@nx/eslint-plugin';
import { createProjectGraphAsync } from '@nx/devkit';
import tseslint from 'typescript-eslint';

// The boundary rule reads Nx's *cached* project graph (.nx/workspace-data, git-ignored) and, when
// there is none — a fresh clone, a CI checkout — it prints a warning and silently skips itself. Build
// (or refresh) the graph here, in-process (nx.json has useDaemonProcess: false), so `eslint .` always
// enforces the boundaries against the current project.json tags. ~1 s, no network.
const projectGraph = await createProjectGraphAsync({ exitOnError: false });

// Projects, their kinds and tags, as one string placed in `settings` below: ESLint's --cache keys each
// file's cached result on its computed config, so retagging a project re-lints everything instead of
// serving results computed against the old tags.
const projectsFingerprint = Object.values(projectGraph.nodes)
  .map((node) => `${node.name}|${node.type}|${node.data.root}|${[...(node.data.tags ?? [])].sort().join(',')}`)
  .sort()
  .join(';');

// Services that exist or are planned; each may depend on itself and scope:shared only.
const SERVICE_SCOPES = [
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
  'automation',
  'members',
  'console',
  'importer',
  'analytics',
];

/** Layering for production code. Nothing here may reach type:testing. */
const TYPE_RULES = {
  'type:app': ['type:feature', 'type:platform', 'type:contracts', 'type:data'],
  'type:feature': ['type:feature', 'type:platform', 'type:contracts', 'type:data'],
  'type:platform': ['type:contracts'],
  'type:contracts': ['type:contracts'],
  'type:data': ['type:data', 'type:contracts'], // db, and events (outbox + JetStream) which names contract types
  'type:testing': ['type:platform', 'type:contracts', 'type:data', 'type:testing'],
  // bench/ (Node scripts that seed with libs/testing and measure the libraries): never an app.
  'type:bench': ['type:feature', 'type:platform', 'type:contracts', 'type:data', 'type:testing'],
};

/** Files that are tests (or test support) and so may also import type:testing. */
const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**'];

const CODE_FILES = ['**/*.ts', '**/*.tsx', '**/*.cts', '**/*.mts', '**/*.js', '**/*.mjs', '**/*.cjs'];

function boundaryOptions({ allowTesting }) {
  const typeConstraints = Object.entries(TYPE_RULES).map(([sourceTag, allowed]) => ({
    sourceTag,
    onlyDependOnLibsWithTags: allowTesting && !allowed.includes('type:testing') ? [...allowed, 'type:testing'] : allowed,
  }));
  const scopeConstraints = [
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    ...SERVICE_SCOPES.map((scope) => ({
      sourceTag: `scope:${scope}`,
      onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'],
    })),
    // bench/ measures every service: it may see every scope (the type rule above still applies).
    { sourceTag: 'scope:bench', onlyDependOnLibsWithTags: [...SERVICE_SCOPES.map((scope) => `scope:${scope}`), 'scope:shared'] },
  ];
  return {
    // An untagged project matches no constraint and so may depend on nothing: tag it.
    depConstraints: [...typeConstraints, ...scopeConstraints],
    allow: [],
    enforceBuildableLibDependency: false,
  };
}

export default [
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'libs/db/src/generated/**', '**/coverage/**', 'bench/results/**', '.nx/**', 'tmp/**'],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],

  // Production code: boundaries, and no type:testing.
  {
    files: CODE_FILES,
    settings: { 'mapi/nx-projects': projectsFingerprint },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaryOptions({ allowTesting: false })],
    },
  },
  // Test code: the same boundaries, plus type:testing (libs/testing) is allowed.
  {
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaryOptions({ allowTesting: true })],
    },
  },

  // bench/ uses a library through its index (or a declared entry point such as @mapi/platform/telemetry),
  // like every other project: @nx/enforce-module-boundaries checks which project a require() reaches,
  // not where inside it, so a path into a library's build or sources is an error here. Caught: any
  // '@mapi/<lib>/dist|src/…' string (also when a helper such as baseline-server.js's lib() requires
  // it), and a required 'libs/<lib>/dist|src/…' path other than the index (`require(path.join(ROOT,
  // 'libs/x/dist/index.js'))` loads an earlier checkout's build for BENCH_BEFORE_ROOT).
  {
    files: ['bench/**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: String.raw`Literal[value=/@mapi\/[a-z0-9-]+\/(dist|src)\//]`,
          message: "bench/ reaches a library through its index ('@mapi/<lib>'); export what is measured there.",
        },
        {
          selector: String.raw`CallExpression[callee.name='require'] Literal[value=/(^|[^a-z0-9-])libs\/[a-z0-9-]+\/(dist|src)\/(?!index\.js$)/]`,
          message: "bench/ reaches a library through its index ('@mapi/<lib>' or libs/<lib>/dist/index.js); export what is measured there.",
        },
      ],
    },
  },

  // @mapi/<lib>/internals (a feature library's repositories, use cases and mappers) is for bench/ and
  // tests, which drive a service below its RPC surface; apps and other libraries use the index (its
  // bootstrap, handler table and config), so what a service exposes stays what it serves.
  {
    files: CODE_FILES,
    ignores: [...TEST_FILES, 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ImportDeclaration > Literal.source',
          'ExportAllDeclaration > Literal.source',
          'ExportNamedDeclaration > Literal.source',
          'ImportExpression > Literal.source',
          "CallExpression[callee.name='require'] > Literal",
        ].map((node) => ({
          selector: `${node}[value=/^@mapi\\/[a-z0-9-]+\\/internals$/]`,
          message:
            "'@mapi/<lib>/internals' is for bench/ and tests; production code uses the library's index (bootstrap, handlers, config).",
        })),
      ],
    },
  },

  // Pragmatic TypeScript rules on top of typescript-eslint's recommended set.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.cts', '**/*.mts'],
    rules: {
      // Nx's flat/typescript adds this (it is not in typescript-eslint's recommended set); no-op
      // callbacks and interface methods that deliberately do nothing are fine.
      '@typescript-eslint/no-empty-function': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests parse JSON bodies and poke at internals; `any` is fine there.
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
];
