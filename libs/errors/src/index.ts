export * from './app-error';
export * from './validate';
