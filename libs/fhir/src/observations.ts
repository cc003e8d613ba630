/**
 * A record as FHIR Observations: one per metric value (a record's metrics, its segments' metrics),
 * one per sample of an intraday or CGM series, one per sleep stage, a blood-pressure panel for a
 * measurement's systolic and diastolic pair, and one for a workout itself with its metrics as
 * members. Every Observation names the Patient, the Device, the record's log_id (identifier) and
 * the record's id and checksum (meta.source: `urn:uuid:<record id>#<checksum>`).
 *
 * Series are one Observation per sample rather than SampledData: the vital-signs profiles and the
 * CGM IG's sensor-reading profiles take a Quantity value with its own effective time, and a search
 * by date must find single readings.
 */
import { metricDefinition } from '@wellstream/catalog';
import type { RecordMetric, RecordPayload, RecordSeries } from '@wellstream/contracts';
import { deviceIdOf } from './device';
import { effective, localDateTime } from './fhir-time';
import type { CodeableConcept, Coding, FhirResource, Quantity } from './fhir-types';
import { BLOOD_PRESSURE_PANEL, CGM_READING, codedQuantity, type CategoryCoding } from './metric-map';
import { patientIdOf } from './patient-id';
import { LOINC, logIdSystem, OBSERVATION_CATEGORY, RECORD_ID_SYSTEM, UCUM, WELLSTREAM_CATEGORY, WELLSTREAM_METRIC, WELLSTREAM_SLEEP_STAGE, WELLSTREAM_WORKOUT_CATEGORY } from './systems';

const LABORATORY: CategoryCoding = { system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' };
const ACTIVITY: CategoryCoding = { system: OBSERVATION_CATEGORY, code: 'activity', display: 'Activity' };
const VITAL: CategoryCoding = { system: OBSERVATION_CATEGORY, code: 'vital-signs', display: 'Vital Signs' };
const EXAM: CategoryCoding = { system: OBSERVATION_CATEGORY, code: 'exam', display: 'Exam' };
const SLEEP: CategoryCoding = { system: WELLSTREAM_CATEGORY, code: 'sleep', display: 'Sleep' };

interface Context {
  record: RecordPayload;
  patient: string;
  device: string;
}

/** Every Observation of one record, in the record's order. */
export function observationsOf(record: RecordPayload): FhirResource[] {
  const ctx: Context = { record, patient: patientIdOf(record.user.uid), device: deviceIdOf(record.user.user_id, record.source) };
  const whole = { start: record.start_time, end: record.end_time };
  switch (record.type) {
    case 'measurement':
      return measurementObservations(ctx, record.metrics);
    case 'nutrition':
      return [
        ...record.metrics.map((m, i) => metricObservation(ctx, `m${i}`, m, whole)),
        ...record.segments.flatMap((s, k) => s.metrics.map((m, i) => metricObservation(ctx, `s${k}-m${i}`, m, whole, s.name))),
      ];
    case 'summary':
      return [
        ...record.metrics.map((m, i) => metricObservation(ctx, `m${i}`, m, whole)),
        ...record.segments.flatMap((s, k) => s.metrics.map((m, i) => metricObservation(ctx, `s${k}-m${i}`, m, { start: s.start_time ?? whole.start, end: s.end_time ?? whole.end }, s.name))),
      ];
    case 'sleep':
      return [...record.metrics.map((m, i) => metricObservation(ctx, `m${i}`, m, whole)), ...record.stages.map((s, i) => stageObservation(ctx, i, s))];
    case 'workout': {
      const members = [
        ...record.metrics.map((m, i) => metricObservation(ctx, `m${i}`, m, whole)),
        ...record.segments.flatMap((s, k) => s.metrics.map((m, i) => metricObservation(ctx, `s${k}-m${i}`, m, { start: s.start_time ?? whole.start, end: s.end_time ?? whole.end }, s.name))),
      ];
      return [workoutObservation(ctx, members), ...members];
    }
    case 'intraday':
    case 'cgm':
      return record.metrics.flatMap((series, i) => seriesObservations(ctx, i, series));
  }
}

function base(ctx: Context, suffix: string, category: CategoryCoding, code: CodeableConcept, when: { start: string; end: string }, profile?: string): FhirResource {
  const r = ctx.record;
  return {
    resourceType: 'Observation',
    id: `${r.id}-${suffix}`,
    meta: { ...(profile ? { profile: [profile] } : {}), source: `urn:uuid:${r.id}#${r.checksum}` },
    identifier: [
      { system: logIdSystem(r.source.type), value: r.log_id },
      { system: RECORD_ID_SYSTEM, value: `${r.id}/${suffix}` },
    ],
    status: 'final',
    category: [{ coding: [category] }],
    code,
    subject: { reference: `Patient/${ctx.patient}` },
    ...effective(when.start, when.end, r.utc_offset),
    issued: r.created_at,
    device: { reference: `Device/${ctx.device}` },
  };
}

function quantityOf(metric: string, unit: string, value: number) {
  const coded = codedQuantity(metric, unit, value);
  if (coded) {
    const q: Quantity = { value: coded.value, unit: coded.unit.display, system: UCUM, code: coded.unit.code };
    return { coded, quantity: q };
  }
  // A metric or unit newer than this mapping: its own code, the unit as text only (valid FHIR).
  return { coded: undefined, quantity: { value, unit } };
}

/**
 * A vital sign over an interval (a workout's heart rate, a night's SpO2, a day's resting heart
 * rate, a measurement taken over minutes) is an aggregate, not a reading: it keeps its code and
 * its period, and takes its record's category instead of vital-signs and the vital-signs profiles,
 * which describe single readings (their constraint vs-1 does not admit an effectivePeriod in the
 * HL7 validator). A measurement's is `exam` (taken with a simple instrument).
 */
const INTERVAL_CATEGORY: Record<string, CategoryCoding> = { sleep: SLEEP, workout: ACTIVITY, summary: ACTIVITY, nutrition: ACTIVITY, measurement: EXAM, intraday: ACTIVITY, cgm: LABORATORY };

function metricObservation(ctx: Context, suffix: string, m: RecordMetric, when: { start: string; end: string }, segment?: string): FhirResource {
  const { coded, quantity } = quantityOf(m.type, m.unit, m.value);
  const interval = when.start !== when.end && coded?.mapping.category.code === 'vital-signs';
  const category = interval ? INTERVAL_CATEGORY[ctx.record.type] : (coded?.mapping.category ?? ACTIVITY);
  const profile = interval ? undefined : coded?.mapping.profile;
  const description = metricDefinition(m.type)?.description ?? m.type;
  const text = [description, m.sub_type ? `(${m.sub_type})` : '', segment ? `— ${segment}` : ''].filter(Boolean).join(' ');
  const codes: Coding[] = coded?.codes ?? [{ system: WELLSTREAM_METRIC, code: m.type, display: description }];
  return {
    ...base(ctx, suffix, category, { coding: codes, text }, when, profile),
    valueQuantity: quantity,
  };
}

/** Systolic and diastolic of one measurement are one panel (R4 `bp` profile); a lone one stays alone. */
function measurementObservations(ctx: Context, metrics: RecordMetric[]): FhirResource[] {
  const r = ctx.record;
  const sys = metrics.findIndex((m) => m.type === 'blood_pressure_systolic');
  const dia = metrics.findIndex((m) => m.type === 'blood_pressure_diastolic');
  const panel = sys >= 0 && dia >= 0;
  const out = metrics.flatMap((m, i) => (panel && (i === sys || i === dia) ? [] : [metricObservation(ctx, `m${i}`, m, { start: r.start_time, end: r.end_time })]));
  if (!panel) return out;
  const component = (coding: Coding, m: RecordMetric) => ({ code: { coding: [coding], text: coding.display }, valueQuantity: quantityOf(m.type, m.unit, m.value).quantity });
  const point = r.start_time === r.end_time;
  const bp: FhirResource = {
    ...base(ctx, 'bp', point ? VITAL : EXAM, { coding: [BLOOD_PRESSURE_PANEL.code], text: 'Blood pressure' }, { start: r.start_time, end: r.end_time }, point ? BLOOD_PRESSURE_PANEL.profile : undefined),
    component: [component(BLOOD_PRESSURE_PANEL.systolic, metrics[sys]), component(BLOOD_PRESSURE_PANEL.diastolic, metrics[dia])],
  };
  return [bp, ...out];
}

function stageObservation(ctx: Context, i: number, s: { stage: string; start_time: string; end_time: string }): FhirResource {
  return {
    ...base(ctx, `st${i}`, SLEEP, { coding: [{ system: WELLSTREAM_METRIC, code: 'sleep_stage', display: 'Sleep stage' }], text: 'Sleep stage' }, { start: s.start_time, end: s.end_time }),
    valueCodeableConcept: { coding: [{ system: WELLSTREAM_SLEEP_STAGE, code: s.stage, display: s.stage }], text: s.stage },
  };
}

/** The workout itself: "Exercise activity" (as the HL7 Physical Activity IG codes one), its metrics as members. */
function workoutObservation(ctx: Context, members: FhirResource[]): FhirResource {
  const r = ctx.record as Extract<RecordPayload, { type: 'workout' }>;
  return {
    ...base(ctx, 'w', ACTIVITY, { coding: [{ system: LOINC, code: '73985-4', display: 'Exercise activity' }], text: 'Exercise activity' }, { start: r.start_time, end: r.end_time }),
    valueCodeableConcept: { coding: [{ system: WELLSTREAM_WORKOUT_CATEGORY, code: r.category, display: r.category }], text: r.name ?? r.category },
    ...(members.length ? { hasMember: members.map((m) => ({ reference: `Observation/${m.id as string}` })) } : {}),
  };
}

/** One Observation per sample; a CGM record's glucose as the CGM IG's sensor readings. */
function seriesObservations(ctx: Context, i: number, series: RecordSeries): FhirResource[] {
  const cgm = ctx.record.type === 'cgm' && series.type === 'blood_glucose' ? CGM_READING[series.unit] : undefined;
  return series.samples.map((sample, j) => {
    if (!cgm) return metricObservation(ctx, `m${i}-${j}`, { type: series.type, unit: series.unit, value: sample.value, origin: series.origin }, { start: sample.time, end: sample.time });
    const { quantity } = quantityOf(series.type, series.unit, sample.value);
    return {
      ...base(ctx, `m${i}-${j}`, LABORATORY, { coding: [cgm], text: 'CGM sensor reading' }, { start: sample.time, end: sample.time }),
      // The CGM IG's readings are single instants (effectiveDateTime), which base() gives a sample.
      effectiveDateTime: localDateTime(sample.time, ctx.record.utc_offset),
      valueQuantity: quantity,
    };
  });
}
