/**
 * The events a stream connection or a replay delivers, typed from the AsyncAPI document's SSE
 * messages (src/generated/events.ts). `type` is the SSE event name; `id` is the SSE id
 * (`<partition>-<offset>`) to resume after, absent on pokes.
 */
import type { components } from '../generated/events';

type Payloads = components['schemas'];

export interface PokeEvent {
  type: 'poke';
  id?: undefined;
  data: Payloads['PokeEvent'];
}
export interface DataEvent {
  type: 'data';
  id: string;
  /** The record (created, changed or deleted). */
  data: Payloads['DataEvent'];
}
export interface ConnectionEvent {
  type: 'connection';
  id: string;
  data: Payloads['ConnectionEvent'];
}
export interface RuleEvent {
  type: 'rule';
  id: string;
  data: Payloads['RuleEvent'];
}

export type WellstreamEvent = PokeEvent | DataEvent | ConnectionEvent | RuleEvent;
export type WellstreamEventType = WellstreamEvent['type'];
