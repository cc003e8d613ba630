/**
 * Follows the sources service's `source-connections` topic (ordered per user, at least once) into
 * users' `sources` entries and the customer's `connection` events (apply-source-connection).
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { consumeEvents, SOURCE_CONNECTION_COPIES, sourceConnectionsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { UsersDeps } from '../users/users.deps';
import { applySourceConnection } from './apply-source-connection.usecase';

export function consumeSourceConnections(log: EventLog, deps: UsersDeps, logger: Logger): Promise<Subscription> {
  return consumeEvents(log, sourceConnectionsTopic, {
    groupId: SOURCE_CONNECTION_COPIES.users,
    fromBeginning: true,
    logger,
    handle: async (event) => {
      const outcome = await applySourceConnection(deps, event);
      logger.debug('source connection event', { user_id: event.user_id, source_type: event.source_type, action: event.action, outcome });
    },
  });
}
