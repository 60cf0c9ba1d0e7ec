export * from './bootstrap';
export * from './importer.handlers';
