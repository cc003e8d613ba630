import { PROVIDER_SOURCE_TYPES } from '@wellstream/catalog';
import { createRouter, declareEndpoints, ENDPOINTS, ROUTE_PREFIXES } from './index';

const router = createRouter(ENDPOINTS, ROUTE_PREFIXES);
const to = (path: string) => {
  const m = router.match(path);
  return m && { service: m.route.service, auth: m.route.auth, org: m.organizationSegment };
};
const provider = PROVIDER_SOURCE_TYPES[0];

describe('routing derived from the endpoint declarations', () => {
  it.each([
    ['/v2/organizations/o%5F1/users', 'users', 'developer', 'o%5F1'],
    ['/v2/organizations/o1/users/', 'users', 'developer', 'o1'],
    ['/v2/organizations/o1/users/u1', 'users', 'developer', 'o1'],
    ['/v2/organizations/o1/users/u1/sleep', 'records', 'developer', 'o1'],
    ['/v2/organizations/o1/users/u1/availability/', 'records', 'developer', 'o1'],
    ['/v2/organizations/o1/source_priority', 'records', 'developer', 'o1'],
    ['/v2/organizations/o1/users/u1/rules/r1', 'rules', 'developer', 'o1'],
    ['/v2/organizations/o1/notification_target', 'notifications', 'developer', 'o1'],
    ['/v2/organizations/o1/notifications/b1/redeliver', 'notifications', 'developer', 'o1'],
    ['/v2/streams', 'streams', 'developer', undefined],
    ['/v2/streams/s1/connect', 'streams', 'developer', undefined],
    ['/v2/replay', 'streams', 'developer', undefined],
    ['/v2/mobile/records', 'records', 'public', undefined],
    ['/v2/marketplace/t1', 'users', 'public', undefined],
    // Every source's actions go to the sources service, which owns a user's sources.
    ['/v2/marketplace/t1/sources/demo/connect', 'sources', 'public', undefined],
    ['/v2/marketplace/t1/sources/apple_health/disconnect', 'sources', 'public', undefined],
    [`/v2/marketplace/t1/sources/${provider}/connect`, 'sources', 'public', undefined],
    [`/v2/marketplace/t1/sources/${provider}/reconnect`, 'sources', 'public', undefined],
    [`/v2/marketplace/t1/sources/${provider}/disconnect`, 'sources', 'public', undefined],
    ['/v2/marketplace/t1/sources/demo/reconnect', 'sources', 'public', undefined],
    ['/v2/marketplace/t1/timezone', 'users', 'public', undefined],
    ['/v2/sources/whoop/callback', 'sources', 'public', undefined],
    ['/v2/sources/whoop/webhook', 'sources', 'public', undefined],
    ['/v2/admin/organizations/o1/ingestion', 'records', 'admin', undefined],
    ['/v2/admin/organizations/o1/sources', 'users', 'admin', undefined],
    ['/v2/admin/organizations/o1/users/u1/suspend', 'users', 'admin', undefined],
    ['/v2/admin/organizations/o1/source_priority', 'records', 'admin', undefined],
    ['/v2/admin/organizations/o1/users/u1/exports/e1', 'users', 'admin', undefined],
    ['/v2/admin/audit_log', 'users', 'admin', undefined],
    ['/v2/exports/e1/download', 'users', 'public', undefined],
  ])('%s → %s (%s)', (path, service, auth, org) => {
    expect(to(path)).toEqual({ service, auth, org });
  });

  it.each([
    // A service answers its own unknown sub-paths (after the gateway's checks).
    ['/v2/organizations/o1/users/u1/unknown/deeper', 'users'],
    ['/v2/streams/s1/unknown', 'streams'],
    ['/v2/marketplace/t1/unknown', 'users'],
    // The sources prefix: a source type no one declared, an action no one declared.
    ['/v2/marketplace/t1/sources', 'sources'],
    ['/v2/marketplace/t1/sources/not_a_source/connect', 'sources'],
    ['/v2/marketplace/t1/sources/demo/unknown/deeper', 'sources'],
    ['/v2/organizations/o1/notifications/b1/unknown', 'notifications'],
  ])('a longer path %s goes to the owner of its longest declared prefix (%s)', (path, service) => {
    expect(to(path)?.service).toBe(service);
  });

  it.each(['/v2/admin/customers', '/v2/admin/customers/c1/tokens', '/v2/admin/organizations/o1', '/health', '/v2/openapi.json', '/v2/organizations/o1', '/v2/organizations//users', '/v2/unknown', '/v2'])(
    'leaves %s to the gateway',
    (path) => {
      expect(router.match(path)).toBeUndefined();
    },
  );

  it('names every operation once', () => {
    const ids = ENDPOINTS.map((e) => e.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('refuses two declarations of one path that disagree on the service', () => {
    const clash = [
      ...declareEndpoints('users', { '/x/{id}': { get: { auth: 'public', operationId: 'a' } } }),
      ...declareEndpoints('records', { '/x/{id}': { post: { auth: 'public', operationId: 'b' } } }),
    ];
    expect(() => createRouter(clash)).toThrow(/disagree/);
  });
});
