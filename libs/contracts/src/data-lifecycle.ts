/**
 * The data lifecycle topics (docs/data-lifecycle.md): what the platform holds about one user is spread over the
 * services that own it, so an export or an erasure is asked of all of them on the log and each
 * answers from its own store (no service reads another's database).
 * - `user-data-requests`: the users service (it owns users) asks every service holding user data
 *   to export it (`export.requested`) or erase it now (`erasure.requested`).
 * - `user-data-exports`: each service's share of an export, in numbered parts of at most
 *   USER_DATA_EXPORT_MAX_ITEMS items; the last part says so. The users service assembles them.
 * - `audit-log`: what was done to whose data, by whom: exports, erasures, retention sweeps. Every
 *   service writes its entries through its outbox; the users service keeps them and the operator
 *   reads them (`GET /v2/admin/audit_log`).
 */
import { randomUUID } from 'node:crypto';
import Joi from 'joi';
import type { TopicDefinition } from './topic';

/** The services that hold user data and answer a data request (the export waits for each of them). */
export const USER_DATA_SERVICES = ['users', 'records', 'rules', 'notifications', 'sources'] as const;
export type UserDataService = (typeof USER_DATA_SERVICES)[number];

export interface UserDataRequest {
  type: 'export.requested' | 'erasure.requested';
  request_id: string;
  user_id: string;
  organization_id: string;
  customer_id: string;
  requested_at: string;
}

export const userDataRequestsTopic: TopicDefinition<UserDataRequest> = {
  spec: { name: 'user-data-requests', partitions: 6, retentionMs: 7 * 24 * 3600 * 1000 },
  schema: Joi.object<UserDataRequest>({
    type: Joi.string().valid('export.requested', 'erasure.requested').required(),
    request_id: Joi.string().max(100).required(),
    user_id: Joi.string().required(),
    organization_id: Joi.string().required(),
    customer_id: Joi.string().required(),
    requested_at: Joi.string().isoDate().required(),
  }),
  key: (e) => e.request_id,
  partitionKey: (e) => e.user_id,
};

/** One item of an export: what it is (`record`, `rule`, `connection`, …) and the data as the service holds it. */
export interface ExportItem {
  kind: string;
  data: Record<string, unknown>;
}

/** Items per part: a part of records stays well under Kafka's default 1 MB message limit. */
export const USER_DATA_EXPORT_MAX_ITEMS = 100;

export interface UserDataExportPart {
  type: 'export.part';
  export_id: string;
  service: UserDataService;
  /** 0, 1, 2, … per service and export. */
  seq: number;
  items: ExportItem[];
  /** The service's last part: `total` is how many items it sent in all. */
  last: boolean;
  total?: number;
  produced_at: string;
}

export const userDataExportsTopic: TopicDefinition<UserDataExportPart> = {
  spec: { name: 'user-data-exports', partitions: 6, retentionMs: 24 * 3600 * 1000 },
  schema: Joi.object<UserDataExportPart>({
    type: Joi.string().valid('export.part').required(),
    export_id: Joi.string().max(100).required(),
    service: Joi.string()
      .valid(...USER_DATA_SERVICES)
      .required(),
    seq: Joi.number().integer().min(0).required(),
    items: Joi.array()
      .items(Joi.object({ kind: Joi.string().max(50).required(), data: Joi.object().unknown(true).required() }))
      .max(USER_DATA_EXPORT_MAX_ITEMS)
      .required(),
    last: Joi.boolean().required(),
    total: Joi.number().integer().min(0),
    produced_at: Joi.string().isoDate().required(),
  }),
  key: (e) => `${e.export_id}:${e.service}:${e.seq}`,
  partitionKey: (e) => e.export_id,
};

export const AUDIT_ACTIONS = ['export.requested', 'export.completed', 'erasure.requested', 'erasure.completed', 'retention.swept', 'fhir.read', 'fhir.export'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  type: 'audit.entry';
  id: string;
  at: string;
  /** Who: `operator` (the admin token), `customer:<id>` (a developer token's reads), or `system:<service>` for the platform's own work (sweeps). */
  actor: string;
  action: AuditAction;
  customer_id: string;
  organization_id: string | null;
  uid: string | null;
  user_id: string | null;
  /** Which service wrote the entry. */
  service: string;
  /** What the action touched: counts, sizes, ids; never the data itself. */
  details: Record<string, unknown>;
}

export const auditLogTopic: TopicDefinition<AuditEntry> = {
  spec: { name: 'audit-log', partitions: 3, retentionMs: 7 * 24 * 3600 * 1000 },
  schema: Joi.object<AuditEntry>({
    type: Joi.string().valid('audit.entry').required(),
    id: Joi.string().max(100).required(),
    at: Joi.string().isoDate().required(),
    actor: Joi.string().max(100).required(),
    action: Joi.string()
      .valid(...AUDIT_ACTIONS)
      .required(),
    customer_id: Joi.string().required(),
    organization_id: Joi.string().allow(null).required(),
    uid: Joi.string().allow(null).required(),
    user_id: Joi.string().allow(null).required(),
    service: Joi.string().max(50).required(),
    details: Joi.object().unknown(true).required(),
  }),
  key: (e) => e.id,
  partitionKey: (e) => e.customer_id,
};

/** An audit entry with a fresh id. */
export function auditEntry(fields: Omit<AuditEntry, 'type' | 'id'>): AuditEntry {
  return { type: 'audit.entry', id: `aud_${randomUUID()}`, ...fields };
}

/** Erasure requests the retention sweep makes carry this prefix: their audit action is `retention.swept`. */
export const RETENTION_REQUEST_PREFIX = 'ret_';

/** Lets other requests run between slices of a long piece of work: it never holds the event loop. */
export const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
