export * from './event-log.port';
export * from './partitioner';
export { TimeSlice } from './time-slice';
