export * from './gateway-keys';
export * from './load-config';
export * from './platform-settings';
export * from './config-reference';
