export * from './event-log.port';
export * from './partitioner';
export { answeringNow, answeringRequest, TimeSlice } from './time-slice';
export type { AnsweredResponse, TimeSliceOptions } from './time-slice';
