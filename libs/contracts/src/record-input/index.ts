export * from './record-input.schema';
export { commonFields, deviceSchema, endTime, metricSchema, metricsSchema, seriesSchema, serviceAssigned, sourceSchema, utcTime } from './record-fields.schema';
export * from './validate-record-input';
