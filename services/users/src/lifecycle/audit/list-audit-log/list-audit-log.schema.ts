/**
 * GET /v2/admin/audit_log query: paging as the other lists (offset, limit 1..100, default 25) and
 * the filters `customer_id` and `action`.
 */
import Joi from 'joi';
import { AUDIT_ACTIONS } from '@wellstream/contracts';

export interface ListAuditLogQuery {
  offset: number;
  limit: number;
  customer_id?: string;
  action?: string;
}

export const listAuditLogSchema = Joi.object<ListAuditLogQuery>({
  offset: Joi.number().integer().min(0).max(1_000_000_000).default(0),
  limit: Joi.number().integer().min(1).max(100).default(25),
  customer_id: Joi.string().min(1).max(200),
  action: Joi.string().valid(...AUDIT_ACTIONS),
}).unknown(true);
