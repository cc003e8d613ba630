export * from './event-log.port';
export * from './partitioner';
export { unshared } from './read-batch';
export type { ReadBatch } from './read-batch';
export { TimeSlice } from './time-slice';
export type { TimeSliceOptions } from './time-slice';
export { answeringNow, answeringRequest } from './answering-requests';
export type { AnsweredResponse } from './answering-requests';
export * from './read-your-writes';
