/**
 * Records reports data from a source the user has not connected (e.g. the mobile app sent Apple
 * Health data): the user is connected to it with the same effects as a marketplace connect, and a
 * repeat is a no-op. Cloud sources are left alone: their connections belong to the sources service
 * (OAuth), and records may ingest a provider's records before this service has applied the
 * provider's `connected`; the entry comes from the `source-connections` topic.
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
      const source = sourceDefinition(detection.source_type);
      if (!source) {
        logger.warn('ignoring a detection of an unknown source', { source_type: detection.source_type });
        return;
      }
      if (source.kind === 'cloud') {
        logger.debug('ignoring a detection of a cloud source (connected through the sources service)', { source_type: detection.source_type, user_id: detection.user_id });
        return;
      }
      const user = await deps.repo.findById(detection.user_id);
      if (!user || user.status !== 'active' || user.organization_id !== detection.organization_id) return;
      try {
        await connectSource(deps, user.id, detection.source_type);
      } catch (err) {
        // Deleted or suspended meanwhile: nothing to connect. Anything else is retried by the log.
        if (isAppError(err) && err.kind === 'not_found') return;
        throw err;
      }
    },
  });
}
