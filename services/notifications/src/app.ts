/**
 * The notifications service's routes: target configuration, batch status and redelivery. The
 * skeleton (libs/runtime) mounts them behind the organization guard.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import type { AddressPolicy } from './targets/address-policy';
import type { TargetRepository } from './targets/target.repository';
import type { BatchRepository } from './batches/batch.repository';
import { configureTargetRoute } from './targets/configure-target/configure-target.route';
import { getTargetRoute } from './targets/get-target/get-target.route';
import { deleteTargetRoute } from './targets/delete-target/delete-target.route';
import { listBatchesRoute } from './batches/list-batches/list-batches.route';
import { getBatchRoute } from './batches/get-batch/get-batch.route';
import { redeliverBatchRoute } from './batches/redeliver-batch/redeliver-batch.route';
import type { Clock } from '@wellstream/clock';
import type { GoneUsersSource } from './withheld/withhold-gone';

export interface NotificationsRouteDeps {
  targets: TargetRepository;
  batches: BatchRepository;
  policy: AddressPolicy;
  clock: Clock;
  /** Deleted and erased users: the status endpoints neither show nor resend their items. */
  gone: GoneUsersSource;
  dropPendingItems(organizationId: string): Promise<number>;
  wake(): void;
}

export const notificationsRoutes = (deps: NotificationsRouteDeps): RouteRegistration[] =>
  [configureTargetRoute, getTargetRoute, deleteTargetRoute, listBatchesRoute, getBatchRoute, redeliverBatchRoute].map(
    (register) => (router) => register(router, deps),
  );
