/**
 * Layering, enforced in `npm run lint`: domain code and use cases import no
 * framework or driver; services never import each other; shared libs never import services.
 */
const DRIVERS = '^(express|mongoose|mongodb|kafkajs|ioredis|better-sqlite3|http-proxy-middleware)$';
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
      name: 'libs-not-importing-apps',
      severity: 'error',
      from: { path: '^libs/', pathNot: '^libs/testing/' },
      to: { path: '^(services|gateway|platform)/' },
    },
    {
      name: 'production-not-importing-testing',
      severity: 'error',
      from: { path: '^(libs|services|gateway|platform)/[^/]+/src/', pathNot: '(\\.test|\\.suite|\\.contract)\\.ts$|^libs/testing/' },
      to: { path: '^libs/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
