/**
 * The import cases module-boundaries.int-spec.ts lints: forbidden imports with the message each must
 * give, allowed imports that must give none, and bench/'s deep paths into libraries' builds.
 */

export interface Case {
  name: string;
  filePath: string;
  code: string;
}
export interface Violation extends Case {
  message: RegExp;
}

/** The lint rule that keeps bench/ out of libraries' internals (eslint.config.mjs, the bench block). */
export const DEEP_PATH_RULE = 'no-restricted-syntax';

/** bench/ may use every scope's feature, platform, contracts, data and testing libraries, through their index. */
export const BENCH_THROUGH_INDEXES: Case = {
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

export const violations: Violation[] = [
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

export const allowed: Case[] = [
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
export const deepPaths: Violation[] = [
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
