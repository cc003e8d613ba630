export * from './clock';
export * from './time-zone';
