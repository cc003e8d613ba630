/**
 * The operator's data lifecycle routes (docs/data-lifecycle.md): exports, erasure, the audit log; and the signed
 * export download link.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import type { LifecycleDeps } from './lifecycle.deps';
import { requestExportRoute } from './exports/request-export/request-export.route';
import { getExportRoute } from './exports/get-export/get-export.route';
import { downloadExportRoute } from './exports/download-export/download-export.route';
import { requestErasureRoute } from './erasure/request-erasure/request-erasure.route';
import { listAuditLogRoute } from './audit/list-audit-log/list-audit-log.route';

export const lifecycleRoutes = (deps: LifecycleDeps): RouteRegistration[] =>
  [requestExportRoute, getExportRoute, downloadExportRoute, requestErasureRoute, listAuditLogRoute].map((register) => (router) => register(router, deps));
