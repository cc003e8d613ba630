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
  mapped: Mapped[];
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
  requestPermissions(resources: readonly ResourceType[]): Promise<void>;
  /** Changes of one feed after `cursor` (without one: everything), of samples since `since`. */
  readChanges(feed: string, cursor: string | undefined, since: Date): Promise<ChangePage>;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;
