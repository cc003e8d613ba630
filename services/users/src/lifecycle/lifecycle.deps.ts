/**
 * What the data lifecycle use cases (export, erasure, retention, audit log) need, handed in by the
 * composition root.
 */
import type { Clock } from '@wellstream/clock';
import type { EventLog } from '@wellstream/bus';
import type { Outbox } from '@wellstream/outbox';
import type { UserRepository } from '../users/user.repository';
import type { AuditLogRepository } from './audit/audit-log.repository';
import type { ErasureRepository } from './erasure/erasure.repository';
import type { ExportRepository } from './exports/export.repository';

export interface LifecycleDeps {
  users: UserRepository;
  exports: ExportRepository;
  audit: AuditLogRepository;
  erasures: ErasureRepository;
  /** Stored answers of idempotent writes (an erasure removes the user's). */
  idempotentAnswers: { forgetUser(userId: string): Promise<number> };
  outbox: Outbox;
  /** Erasure removes the user's messages from it. */
  eventLog: EventLog;
  clock: Clock;
  /** Signs export download links (HMAC-SHA256); the gateway key, so every replica verifies what another signed. */
  linkKey: string;
  linkTtlSeconds: number;
  /** Absolute URLs handed out start with this (WELLSTREAM_PUBLIC_URL). */
  publicUrl: string;
  retentionDays: number;
}
