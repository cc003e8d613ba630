/**
 * Records saw data from a source the user has not connected (the mobile app sent Apple Health
 * data, say): the user is connected to it at once, and a repeat is a no-op. Records also reports
 * every later upload of a phone store, which updates the connection's last upload and what it
 * brought (record-phone-upload.usecase.ts), or, for a store disconnected meanwhile, nothing. Cloud sources are left alone: they connect only through their provider's sign-in, and
 * records may ingest a provider's records before its connection is announced.
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { SourceDetection } from '@wellstream/contracts';
import { isAppError } from '@wellstream/errors';
import type { Logger } from '@wellstream/logging';
import type { ProjectedUser } from '../users/user-projection';
import { connectAtOnce, ConnectAtOnceDeps } from './connect-at-once.usecase';
import { connectionId } from './connection';
import { recordPhoneUpload, uploadsAfter } from './record-phone-upload.usecase';

export interface ApplySourceDetectionDeps extends ConnectAtOnceDeps {
  /** The user as the users service last published it (waits for the projection when it lags). */
  userById(id: string): Promise<ProjectedUser | null>;
  logger: Logger;
}

export type DetectionOutcome = 'connected' | 'synced' | 'already' | 'not_connected' | 'unknown_source' | 'cloud' | 'no_user';

export async function applySourceDetection(deps: ApplySourceDetectionDeps, detection: SourceDetection): Promise<DetectionOutcome> {
  const source = sourceDefinition(detection.source_type);
  if (!source) {
    deps.logger.warn('ignoring a detection of an unknown source', { source_type: detection.source_type });
    return 'unknown_source';
  }
  if (source.kind === 'cloud') return 'cloud';
  const user = await deps.userById(detection.user_id);
  if (!user || user.status !== 'active' || user.organization_id !== detection.organization_id) return 'no_user';
  const upload = detection.upload;
  const current = await deps.connections.byId(connectionId(user._id, detection.source_type));
  if (current) return upload && (await recordPhoneUpload(deps, current, detection.detected_at, upload)) ? 'synced' : 'already';
  // Only a store's first record connects it: after a marketplace Disconnect the app connects it again.
  if (upload && !upload.first) return 'not_connected';
  try {
    const first = upload ? { connected_at: detection.detected_at, last_synced_at: detection.detected_at, uploaded: uploadsAfter(undefined, upload) } : {};
    return (await connectAtOnce(deps, user, detection.source_type, first)) ? 'connected' : 'already';
  } catch (err) {
    // Deleted or suspended meanwhile: nothing to connect. Anything else is retried by the log.
    if (isAppError(err) && err.kind === 'not_found') return 'no_user';
    throw err;
  }
}
