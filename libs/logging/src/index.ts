export * from './logger';
export * from './redact';
export * from './request-context';
