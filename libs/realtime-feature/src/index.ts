export * from './config';
export * from './start-realtime';
