/** What status() reports, persisted so it survives restarts. */
import type { ResourceType } from '../records';
import type { HistoryAccess, StoragePort } from './ports';

export interface ResourceStatus {
  /** When records of this resource were last acknowledged by the platform. */
  lastUploadAt?: string;
  /** The latest end_time among them. */
  lastRecordTime?: string;
  uploaded: number;
}

export interface SyncStatus {
  connected: boolean;
  /** Why syncing stopped, if it did: a refused token (401) or a source disconnected on the marketplace. */
  stopped?: 'unauthorized' | 'source_disconnected';
  lastSyncAt?: string;
  lastUploadAt?: string;
  lastError?: { code: string; message: string; at: string };
  queueLength: number;
  /** Records the platform rejected as invalid (400) and the SDK dropped. */
  dropped: number;
  /** Samples skipped because their app's cloud source is connected in Wellstream. */
  skippedNotTwice: number;
  /** Whether the platform has the phone-source connect endpoint (`pending`: an older platform answered 404). */
  connectEndpoint?: 'available' | 'pending';
  /** Cloud sources the platform said the user connected (from the connect endpoint, when it answers them). */
  connectedCloudSources?: string[];
  /**
   * Health Connect, when the first sync's window reaches further back than it reads without the
   * history permission: the SDK asked for it; `unconfirmed` (refused, or not reported by the
   * bridge) means nothing older than `limitedFrom` may arrive.
   */
  history?: HistoryAccess;
  resources: Partial<Record<ResourceType, ResourceStatus>>;
}

export type PersistedStatus = Omit<SyncStatus, 'queueLength' | 'connected'>;

const KEY = 'wellstream:status';

export async function loadStatus(storage: StoragePort): Promise<PersistedStatus> {
  const raw = await storage.getItem(KEY);
  return raw ? (JSON.parse(raw) as PersistedStatus) : { dropped: 0, skippedNotTwice: 0, resources: {} };
}

export const saveStatus = (storage: StoragePort, status: PersistedStatus) => storage.setItem(KEY, JSON.stringify(status));
export const clearStatus = (storage: StoragePort) => storage.removeItem(KEY);
