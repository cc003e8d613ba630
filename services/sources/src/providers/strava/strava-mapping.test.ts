/**
 * Activities → workout records, from the documented examples: the "List Athlete Activities" answer
 * (SummaryActivity, "Happy Friday") and the "Create an Activity" answer (a manual DetailedActivity,
 * "Chill Day"). Every record must pass ingestion exactly as the records service validates it.
 */
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { parseLossless } from './strava-json';
import { activityOffset, mapActivity, workoutCategory } from './strava-mapping';
import { Json } from './strava-json';

/** The first item of the documented List Athlete Activities example, verbatim. */
export const LISTED = `{
  "resource_state" : 2, "athlete" : { "id" : 134815, "resource_state" : 1 }, "name" : "Happy Friday",
  "distance" : 24931.4, "moving_time" : 4500, "elapsed_time" : 4500, "total_elevation_gain" : 0,
  "type" : "Ride", "sport_type" : "MountainBikeRide", "workout_type" : null, "id" : 154504250376823,
  "external_id" : "garmin_push_12345678987654321", "upload_id" : 987654321234567891234,
  "start_date" : "2018-05-02T12:15:09Z", "start_date_local" : "2018-05-02T05:15:09Z",
  "timezone" : "(GMT-08:00) America/Los_Angeles", "utc_offset" : -25200, "start_latlng" : null, "end_latlng" : null,
  "location_city" : null, "location_state" : null, "location_country" : "United States", "achievement_count" : 0,
  "kudos_count" : 3, "comment_count" : 1, "athlete_count" : 1, "photo_count" : 0,
  "map" : { "id" : "a12345678987654321", "summary_polyline" : null, "resource_state" : 2 },
  "trainer" : true, "commute" : false, "manual" : false, "private" : false, "flagged" : false,
  "gear_id" : "b12345678987654321", "from_accepted_tag" : false, "average_speed" : 5.54, "max_speed" : 11,
  "average_cadence" : 67.1, "average_watts" : 175.3, "weighted_average_watts" : 210, "kilojoules" : 788.7,
  "device_watts" : true, "has_heartrate" : true, "average_heartrate" : 140.3, "max_heartrate" : 178,
  "max_watts" : 406, "pr_count" : 0, "total_photo_count" : 1, "has_kudoed" : false, "suffer_score" : 82 }`;

/** The documented Create an Activity answer (abridged to the fields a mapping could read). */
const MANUAL = `{ "id" : 123456778928065, "resource_state" : 3, "external_id" : null, "upload_id" : null,
  "athlete" : { "id" : 12343545645788, "resource_state" : 1 }, "name" : "Chill Day", "distance" : 0,
  "moving_time" : 18373, "elapsed_time" : 18373, "total_elevation_gain" : 0, "type" : "Ride",
  "sport_type" : "MountainBikeRide", "start_date" : "2018-02-20T18:02:13Z", "start_date_local" : "2018-02-20T10:02:13Z",
  "timezone" : "(GMT-08:00) America/Los_Angeles", "utc_offset" : -28800, "trainer" : false, "commute" : false,
  "manual" : true, "private" : false, "flagged" : false, "average_speed" : 0, "max_speed" : 0, "has_heartrate" : false,
  "description" : null, "calories" : 0, "segment_efforts" : [ ] }`;

const doc = (text: string) => parseLossless(text) as Json;

describe('Strava activity mapping', () => {
  it('maps the documented SummaryActivity to a workout with its catalog metrics only', () => {
    const record = mapActivity(doc(LISTED));
    expect(record).toEqual({
      type: 'workout',
      source: { type: 'strava' },
      log_id: '154504250376823',
      start_time: '2018-05-02T12:15:09Z',
      end_time: '2018-05-02T13:30:09Z',
      utc_offset: -25200,
      category: 'cycling',
      name: 'Happy Friday',
      metrics: [
        { type: 'distance', unit: 'm', value: 24931.4, origin: 'device' },
        { type: 'active_duration', unit: 's', value: 4500, origin: 'device' },
        { type: 'elevation', unit: 'm', value: 0, origin: 'device' },
        { type: 'avg_speed', unit: 'm/s', value: 5.54, origin: 'device' },
        { type: 'avg_heart_rate', unit: 'bpm', value: 140.3, origin: 'device' },
        { type: 'max_heart_rate', unit: 'bpm', value: 178, origin: 'device' },
        { type: 'avg_cadence', unit: 'rpm', value: 67.1, origin: 'device' },
      ],
    });
    assertIngestible([record]);
  });

  it('marks a manual activity\'s metrics manual, and takes calories 0 as "not computed"', () => {
    const record = mapActivity(doc(MANUAL));
    expect(record.metrics?.every((m) => m.origin === 'manual')).toBe(true);
    expect(record.metrics?.map((m) => m.type)).not.toContain('energy_burned');
    expect(record.end_time).toBe('2018-02-20T23:08:26Z');
    expect(record.utc_offset).toBe(-28800);
    assertIngestible([record]);
  });

  it('keeps every digit of an id beyond 2^53 (the Get Activity example id 12345678987654321)', () => {
    const record = mapActivity(doc(LISTED.replace('154504250376823', '12345678987654321')));
    expect(record.log_id).toBe('12345678987654321');
  });

  it('maps DetailedActivity calories and the device name', () => {
    const record = mapActivity({ ...doc(LISTED), calories: 870.2, device_name: 'Garmin Edge 530' });
    expect(record.source).toEqual({ type: 'strava', device: { name: 'Garmin Edge 530' } });
    expect(record.metrics).toContainEqual({ type: 'energy_burned', unit: 'kcal', value: 870.2, origin: 'device' });
  });

  it('leaves running cadence out (its unit is not documented) and maps sport types to categories', () => {
    const run = mapActivity({ ...doc(LISTED), sport_type: 'TrailRun', type: 'Run' });
    expect(run.category).toBe('running');
    expect(run.metrics?.map((m) => m.type)).not.toContain('avg_cadence');
    expect(workoutCategory('WeightTraining')).toBe('strength');
    expect(workoutCategory('Kayaking')).toBe('other');
    expect(mapActivity({ ...doc(LISTED), sport_type: undefined, type: 'Swim' }).category).toBe('swimming');
  });

  it('takes the offset from utc_offset, else the Olson zone in timezone at the start, else none', () => {
    const base = doc(LISTED);
    const may = Date.parse('2018-05-02T12:15:09Z');
    expect(activityOffset({ ...base, utc_offset: undefined }, may)).toBe(-25200);
    expect(activityOffset({ ...base, utc_offset: undefined }, Date.parse('2018-01-02T12:00:00Z'))).toBe(-28800);
    expect(activityOffset({ ...base, utc_offset: undefined, timezone: '(GMT+00:00) Not/AZone' }, may)).toBeUndefined();
    const noZone = mapActivity({ ...base, utc_offset: undefined, timezone: undefined });
    expect(noZone).not.toHaveProperty('utc_offset');
    assertIngestible([noZone]);
  });

  it('answers bad_response for an activity without id or start_date', () => {
    expect(() => mapActivity({ ...doc(LISTED), id: 'x' })).toThrow(expect.objectContaining({ kind: 'bad_response' }));
    expect(() => mapActivity({ ...doc(LISTED), start_date: '2018-05-02 12:15' })).toThrow(expect.objectContaining({ kind: 'bad_response' }));
  });
});
