/**
 * One jest run over the workspace. TypeScript is transformed by swc (no type checking here:
 * `npm run typecheck` does that); workspace packages resolve to their sources.
 * - unit: no servers.
 * - integration (*.int.test.ts): real Kafka, MongoDB API (FerretDB) and Redis, started once per
 *   run by deploy/servers (the run fails, never skips, when one cannot start).
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
    '^@wellstream/(sdk|cli)$': '<rootDir>/packages/$1/src',
    '^@wellstream/(.+)-service$': '<rootDir>/services/$1/src',
    '^@wellstream/(bus|store)/adapters$': '<rootDir>/libs/$1/src/adapters',
    '^@wellstream/(.+)$': '<rootDir>/libs/$1/src',
  },
  testEnvironment: 'node',
  rootDir: __dirname,
  setupFiles: ['<rootDir>/libs/testing/src/jest-env.js'],
};

module.exports = {
  testTimeout: 30000,
  // One temporary directory per run, removed at its end (libs/testing/src/jest-tmpdir.js).
  globalSetup: `${__dirname}/libs/testing/src/jest-tmpdir-setup.js`,
  globalTeardown: `${__dirname}/libs/testing/src/jest-tmpdir-teardown.js`,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,gateway,edge,services,platform,packages,test}/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.int\\.test\\.ts$', '\\.faults\\.test\\.ts$', '\\.containers\\.test\\.ts$'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,gateway,edge,services,platform,packages,test}/**/*.int.test.ts'],
      globalSetup: '<rootDir>/deploy/servers/jest-global-setup.js',
      globalTeardown: '<rootDir>/deploy/servers/jest-global-teardown.js',
    },
    {
      ...shared,
      displayName: 'faults',
      testMatch: ['<rootDir>/{libs,gateway,edge,services,platform,packages,test}/**/*.faults.test.ts'],
    },
    {
      ...shared,
      displayName: 'containers',
      testMatch: ['<rootDir>/test/containers/**/*.containers.test.ts'],
      globalSetup: '<rootDir>/deploy/containers/jest-global-setup.js',
    },
  ],
};
