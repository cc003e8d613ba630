/**
 * What the sync engine needs from the phone, as ports: a key-value storage that survives restarts
 * (AsyncStorage, MMKV, a file: anything with these three calls), a health store's change feed
 * (HealthKit anchored queries, Health Connect change tokens; see ../bridges) and `fetch`.
 */
import type { Mapped } from '../mapping/entries';
import type { ResourceType, SourceType } from '../records';

export interface StoragePort {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
  getAllKeys(): Promise<readonly string[]>;
}

/** One page of a feed's changes since a cursor (an anchor or a change token). */
export interface ChangePage {
  /** The page's samples, mapped as they are iterated (once). */
  mapped: Iterable<Mapped>;
  /** Store ids of deleted samples. */
  deletedIds: string[];
  cursor: string;
  more: boolean;
  /** The cursor expired (a Health Connect token unused for 30 days): read the feed again from the start. */
  restart?: boolean;
}

export interface HealthSource {
  /** The store this reads: `apple_health` or `health_connect` (whose records may be `samsung_health`). */
  readonly store: Extract<SourceType, 'apple_health' | 'health_connect'>;
  /** The feeds (HealthKit type identifiers, Health Connect record types) that fill these resources. */
  feeds(resources: readonly ResourceType[]): string[];
  /** The resource a feed's records are (for deletions, which name only the sample id). */
  resourceOf(feed: string): ResourceType;
  /**
   * Asks the store for read permission on the types of these resources (and a workout's heart
   * rate). `window` is the first sync's: `since` how far back it reads, `grantedAt` when the SDK
   * first asked (a store that reads only so far back before the grant asks for more when needed).
   */
  requestPermissions(resources: readonly ResourceType[], window?: { since: Date; grantedAt: Date }): Promise<PermissionAnswer | void>;
  /** Changes of one feed after `cursor` (without one: everything), of samples since `since`. */
  readChanges(feed: string, cursor: string | undefined, since: Date): Promise<ChangePage>;
  /** The heart-rate samples the store holds between two instants, whoever synced them (a workout's heart rate). */
  heartRateBetween?(start: Date, end: Date): Promise<HeartRateSample[]>;
}

export interface HeartRateSample {
  bpm: number;
  /** The writing app (bundle id, data origin), so "not twice" leaves out what a connected cloud source's app wrote. */
  app?: string;
}

/** What a store says about reading history further back than it allows by default. */
export interface PermissionAnswer {
  history?: HistoryAccess;
}

/**
 * Health Connect reads nothing older than 30 days before the app's first permission unless the
 * history permission is granted: `from` is the window asked for, `limitedFrom` where reads stop
 * without it, `permission` whether the store reported it granted (`unconfirmed`: refused, or a
 * bridge that does not report it back).
 */
export interface HistoryAccess {
  from: string;
  limitedFrom: string;
  permission: 'granted' | 'unconfirmed';
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;
