/**
 * Records reports data from a source the user has not connected (e.g. the mobile app sent Apple
 * Health data): the user is connected to it with the same effects as a marketplace connect. The
 * detection itself is the consent (the data already flows), and a repeat is a no-op.
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { sourceDefinition } from '@wellstream/catalog';
import { consumeEvents, sourceDetectionsTopic } from '@wellstream/contracts';
import { isAppError } from '@wellstream/errors';
import type { Logger } from '@wellstream/logging';
import type { UsersDeps } from '../users/users.deps';
import { connectSource } from '../marketplace/connect-source/connect-source.usecase';

export function consumeSourceDetections(log: EventLog, deps: UsersDeps, logger: Logger): Promise<Subscription> {
  return consumeEvents(log, sourceDetectionsTopic, {
    groupId: 'users.source-detections',
    fromBeginning: true,
    logger,
    handle: async (detection) => {
      if (!sourceDefinition(detection.source_type)) {
        logger.warn('ignoring a detection of an unknown source', { source_type: detection.source_type });
        return;
      }
      const user = await deps.repo.findById(detection.user_id);
      if (!user || user.status !== 'active' || user.organization_id !== detection.organization_id) return;
      try {
        await connectSource(deps, user.id, detection.source_type, { consent: true });
      } catch (err) {
        // Deleted or suspended meanwhile: nothing to connect. Anything else is retried by the log.
        if (isAppError(err) && err.kind === 'not_found') return;
        throw err;
      }
    },
  });
}
