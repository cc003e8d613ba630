export * from './caller';
export * from './create-service-app';
export * from './error-response';
export * from './gateway-assertion';
export * from './gateway-trust.middleware';
export * from './http-server';
export * from './organization-ownership';
export * from './validate';
