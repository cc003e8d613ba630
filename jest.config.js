/**
 * One jest run over the workspace. TypeScript is transformed by swc (no type checking here:
 * `npm run typecheck` does that); workspace packages resolve to their sources. docs/tests.md has
 * the convention; in short:
 * - unit (`*.test.ts` under a `src/` folder, beside the file they test): no servers, no platform.
 * - component (`*.test.ts` under a `test/` folder of a package, a service or the root, and `*.both.test.ts` on the
 *   embedded runtime): a library's adapters, a service or the whole platform started in-process,
 *   other processes, headless Chromium. No servers.
 * - integration (`*.int.test.ts`, and `*.both.test.ts` again with WELLSTREAM_TEST_RUNTIME=distributed):
 *   real Kafka, MongoDB API (FerretDB) and Redis, started once per run by deploy/servers (the run
 *   fails, never skips, when one cannot start).
 * - faults (*.faults.test.ts): servers of their own that the tests kill and restart; `npm test`
 *   runs this project alone, after the others, so its load does not slow their timings.
 * - containers (*.containers.test.ts): the images built with podman and the platform run from
 *   docker-compose.yml (deploy/containers); `npm test` runs it last, alone (it takes minutes).
 */
const shared = {
  transform: {
    '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
    // ESM-only dependencies of the test tooling (openapi-backend's ref parser) become CommonJS.
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@apidevtools/json-schema-ref-parser/)'],
  moduleNameMapper: {
    '^@wellstream/gateway$': '<rootDir>/gateway/src',
    '^@wellstream/edge$': '<rootDir>/edge/src',
    '^@wellstream/platform$': '<rootDir>/platform/src',
    '^@wellstream/platform/testing$': '<rootDir>/platform/test/test-platform',
    '^@wellstream/(sdk|cli|mobile)$': '<rootDir>/packages/$1/src',
    '^@wellstream/(.+)-service$': '<rootDir>/services/$1/src',
    '^@wellstream/(bus|store)/adapters$': '<rootDir>/libs/$1/src/adapters',
    '^@wellstream/(.+)$': '<rootDir>/libs/$1/src',
  },
  testEnvironment: 'node',
  rootDir: __dirname,
  setupFiles: ['<rootDir>/libs/testing/src/jest-env.js'],
};

// Where tests live (every workspace folder; the root's `test/` is listed apart where it matters).
const areas = '<rootDir>/{libs,gateway,edge,services,platform,packages}';
// Suites that need servers, faults or containers belong to their own projects.
const special = ['\\.int\\.test\\.ts$', '\\.faults\\.test\\.ts$', '\\.containers\\.test\\.ts$'];

module.exports = {
  testTimeout: 30000,
  // One temporary directory per run, removed at its end (libs/testing/src/jest-tmpdir.js).
  globalSetup: `${__dirname}/libs/testing/src/jest-tmpdir-setup.js`,
  globalTeardown: `${__dirname}/libs/testing/src/jest-tmpdir-teardown.js`,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: [`${areas}/**/src/**/*.test.ts`],
      testPathIgnorePatterns: ['/node_modules/', ...special, '\\.both\\.test\\.ts$'],
      setupFiles: [...shared.setupFiles, '<rootDir>/libs/testing/src/jest-runtime-embedded.js'],
    },
    {
      ...shared,
      displayName: 'component',
      testMatch: [`${areas}/**/test/**/*.test.ts`, '<rootDir>/test/**/*.test.ts', `${areas}/**/*.both.test.ts`],
      testPathIgnorePatterns: ['/node_modules/', ...special],
      setupFiles: [...shared.setupFiles, '<rootDir>/libs/testing/src/jest-runtime-embedded.js'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: [`${areas}/**/*.int.test.ts`, '<rootDir>/test/**/*.int.test.ts', `${areas}/**/*.both.test.ts`, '<rootDir>/test/**/*.both.test.ts'],
      setupFiles: [...shared.setupFiles, '<rootDir>/libs/testing/src/jest-runtime-distributed.js'],
      globalSetup: '<rootDir>/deploy/servers/jest-global-setup.js',
      globalTeardown: '<rootDir>/deploy/servers/jest-global-teardown.js',
    },
    {
      ...shared,
      displayName: 'faults',
      testMatch: [`${areas}/**/*.faults.test.ts`, '<rootDir>/test/**/*.faults.test.ts'],
    },
    {
      ...shared,
      displayName: 'containers',
      testMatch: ['<rootDir>/test/containers/**/*.containers.test.ts'],
      globalSetup: '<rootDir>/deploy/containers/jest-global-setup.js',
    },
  ],
};
