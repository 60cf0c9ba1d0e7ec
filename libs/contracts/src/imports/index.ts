export * from './import-batch';
