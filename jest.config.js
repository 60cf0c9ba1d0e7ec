// One Jest run, three tiers: unit (*.spec.ts, beside the code), integration (*.int-spec.ts, real
// Postgres/Redis/NATS) and end-to-end (test/e2e/*.e2e-spec.ts, HTTP against started processes).
const swc = [
  '@swc/jest',
  {
    swcrc: false,
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
    module: { type: 'commonjs' },
  },
];
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@mapi/platform/telemetry$': '<rootDir>/libs/platform/src/telemetry/telemetry.ts',
    '^@mapi/([a-z0-9-]+)/internals$': '<rootDir>/libs/$1/src/internals.ts',
    '^@mapi/(.*)$': '<rootDir>/libs/$1/src/index.ts',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // scripts' scratch trees (.run/: the image's staged tree holds copies of the libs' package.json)
  modulePathIgnorePatterns: ['<rootDir>/.run/'],
};

module.exports = {
  maxWorkers: 2,
  // testTimeout is a global option (Jest ignores it per project): long end-to-end tests set their own.
  testTimeout: 30_000,
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,bench,test}/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,test,tools}/**/*.int-spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
