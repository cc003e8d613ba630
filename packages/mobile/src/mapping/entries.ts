/**
 * What a mapper makes of one store sample. Samples that are records of their own (a weight, a meal,
 * a workout) become a `record`; samples that only make sense together (the steps of a day, the
 * heart rate of an hour, the stages of a night) become `part`s of a bucket, which the bucket
 * builder turns into one record and rebuilds whenever one of its parts changes or is deleted.
 */
import type { Device, SourceType, WellstreamRecord } from '../records';

export type BucketKind = 'summary' | 'intraday' | 'sleep';

export interface Part {
  /** The store's id of the sample (HealthKit UUID, Health Connect metadata.id, plus an index for series). */
  id: string;
  kind: BucketKind;
  source: SourceType;
  /** summary/intraday: the catalog metric; sleep: the stage (`light`, `deep`, `rem`, `awake`, `in_bed`, `asleep`). */
  metric: string;
  unit: string;
  value: number;
  start: string;
  end: string;
  /** The sample's own offset when the store knows it. */
  offset?: number;
  device?: Device;
}

export type Mapped = { record: WellstreamRecord } | { part: Part };

/** What a store's change feed delivered, mapped: new or changed samples and deleted sample ids. */
export interface MappedChanges {
  mapped: Mapped[];
  deletedIds: string[];
}

/** Maps a page's samples one at a time as they are consumed, so only the sample at hand has its mapped form in memory. */
export function* mapEach<T>(samples: readonly T[], map: (sample: T) => Mapped[]): Generator<Mapped> {
  for (const sample of samples) yield* map(sample);
}
