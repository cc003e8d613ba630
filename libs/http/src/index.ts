export * from './caller';
export * from './create-service-app';
export * from './error-response';
export * from './http-server';
export * from './validate';
export * from './health';
export * from './metrics';
