/**
 * Layering, enforced in `npm run lint`: domain code and use cases import no
 * framework or driver; services never import each other; shared libs never import services.
 */
const DRIVERS = '^(express|mongoose|mongodb|kafkajs|ioredis|better-sqlite3|http-proxy-middleware)$';
// Use cases, and the domain modules they are written in: entities, their errors, schemas and policies.
const DOMAIN = [
  '\\.(usecase|errors|schema)\\.ts$',
  '-policy\\.ts$',
  '^(services/[^/]+|gateway)/src/[^/]+/(user|record|stream|batch|target|rule|account|user-projection|event-filter|iso-duration|utc-offset)\\.ts$',
];
module.exports = {
  forbidden: [
    {
      name: 'domain-without-frameworks',
      comment: 'Use cases, domain types, errors and repositories see ports only, never express or a driver.',
      severity: 'error',
      from: { path: '\\.(usecase|errors|repository)\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'core'], path: DRIVERS },
    },
    {
      name: 'domain-without-frameworks-pathnames',
      severity: 'error',
      from: { path: '\\.(usecase|errors|repository)\\.ts$' },
      to: { path: 'node_modules/(express|mongoose|mongodb|kafkajs|ioredis|better-sqlite3)/' },
    },
    {
      name: 'domain-not-reaching-frameworks',
      comment:
        'Not even through other modules: a use case or domain module that loads express or a driver by way of a helper, a repository type or a package entry is as coupled as one that imports it.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: '\\.test\\.ts$' },
      to: { path: 'node_modules/(express|mongoose|mongodb|kafkajs|ioredis|better-sqlite3)/', reachable: true },
    },
    {
      name: 'services-independent',
      comment: 'A service never imports another service; they talk over HTTP (gateway) and events.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'services-not-importing-gateway',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: '^gateway/' },
    },
    {
      name: 'customer-packages-standalone',
      comment: 'The SDK and the CLI are published to customers: their sources import only each other and npm packages, never the platform.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: '^(libs|services|gateway|platform)/' },
    },
    {
      name: 'libs-not-importing-apps',
      comment:
        'A library imports no deployable (a service, the gateway, the platform, the edge), test helpers included: what tests share with a service lives in a library (e.g. the record-input contract), and starting the whole platform in a test is @wellstream/platform/testing (platform/test/).',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(services|gateway|platform|edge)/' },
    },
    {
      name: 'production-not-importing-testing',
      severity: 'error',
      from: { path: '^(libs|services|gateway|platform|edge)/[^/]+/src/', pathNot: '(\\.test|\\.suite|\\.contract)\\.ts$|^libs/testing/' },
      to: { path: '^libs/testing/' },
    },
  ],
  options: {
    // Packages in node_modules stay in the graph (so rules can name them) but are not entered.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
