/**
 * The demo source as the sources service runs it: its users are those with a `demo` connection
 * (connected at once from the marketplace, connect-at-once.usecase.ts) and active in the user
 * projection; its records leave through the outbox as `source-records` messages, like a
 * provider's fetch, published only while the connection still exists.
 */
import type { Clock } from '@wellstream/clock';
import type { RecordInput } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import { connectionId } from '../../connections/connection';
import type { ConnectionRepository } from '../../connections/connection.repository';
import { recordMessages } from '../../sync/publish-records';
import type { UserProjectionRepository } from '../../users/user-projection.repository';
import { DEMO_SOURCE, DemoSource } from './demo-source';

export interface DemoProviderDeps {
  users: UserProjectionRepository;
  connections: ConnectionRepository;
  outbox: Outbox;
  logger: Logger;
  clock: Clock;
  tickMs: number;
  backfillDays: number;
}

export function demoProvider(deps: DemoProviderDeps): DemoSource {
  const connection = (userId: string) => deps.connections.byId(connectionId(userId, DEMO_SOURCE));
  return new DemoSource({
    async userOf(userId) {
      const [user, c] = await Promise.all([deps.users.byId(userId), connection(userId)]);
      return user && { _id: user._id, status: user.status, timezone: user.timezone, connected: c !== null };
    },
    connectedUsers: async () => (await deps.connections.ofType(DEMO_SOURCE)).map((c) => c.user_id),
    async publish(userId, records) {
      const c = await connection(userId);
      if (!c) return;
      await deps.outbox.write(recordMessages(deps.outbox, c, records as unknown as RecordInput[], deps.clock.now().toISOString()), async () => undefined);
    },
    logger: deps.logger,
    clock: deps.clock,
    tickMs: deps.tickMs,
    backfillDays: deps.backfillDays,
  });
}
