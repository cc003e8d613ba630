export * from './infra';
export * from './running-service';
export * from './service-main';
