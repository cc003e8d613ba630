/**
 * What the use cases of the sources service are given (by compose.ts, the one composition root).
 */
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { ConnectionRepository } from './connections/connection.repository';
import type { DisconnectionLog } from './connections/disconnection-log';
import type { OAuthStateRepository } from './oauth/oauth-state.repository';
import type { ProviderRegistry } from './providers/provider-registry';
import type { SyncJobRepository } from './sync/sync-job.repository';
import type { UserProjectionRepository } from './users/user-projection.repository';
import type { TokenVault } from './vault/token-vault';
import type { AppSubscriptionSecrets } from './webhooks/app-subscription-secrets';
import type { NotificationReceipts } from './webhooks/notification-receipts.repository';

export interface SourcesSettings {
  publicUrl: string;
  backfillDays: number;
  pollIntervalMs: number;
}

export interface SourcesDeps {
  connections: ConnectionRepository;
  disconnections: DisconnectionLog;
  jobs: SyncJobRepository;
  states: OAuthStateRepository;
  users: UserProjectionRepository;
  registry: ProviderRegistry;
  vault: TokenVault;
  subscriptionSecrets: AppSubscriptionSecrets;
  /** Provider deliveries already acted on (their repeats are dropped), across replicas. */
  receipts: NotificationReceipts;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  settings: SourcesSettings;
  /** Work was queued or connections changed: look at the queue and the subscriptions now. */
  wake(): void;
}
