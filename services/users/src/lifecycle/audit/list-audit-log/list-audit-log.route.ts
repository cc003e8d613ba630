/**
 * GET /v2/admin/audit_log → {data, meta}: what was done to whose data, newest first (operator only).
 */
import type { IRouter } from 'express';
import { endpointRoute, validate } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { operatorActor } from '../../operator-only';
import { usersEndpoint } from '../../../users-endpoints';
import { listAuditLogSchema } from './list-audit-log.schema';

export function listAuditLogRoute(router: IRouter, deps: LifecycleDeps): void {
  endpointRoute(router, usersEndpoint('listAuditLog'), [], async (req, res) => {
    operatorActor(req);
    const q = validate(listAuditLogSchema, req.query, { kind: 'bad_request', code: 'INVALID_QUERY' });
    const { entries, total } = await deps.audit.list({ customerId: q.customer_id, action: q.action, offset: q.offset, limit: q.limit });
    res.json({
      data: entries.map(({ _id, ...e }) => ({ ...e, id: _id })),
      meta: { offset: q.offset, limit: q.limit, total, ...(q.customer_id ? { customer_id: q.customer_id } : {}), ...(q.action ? { action: q.action } : {}) },
    });
  });
}
