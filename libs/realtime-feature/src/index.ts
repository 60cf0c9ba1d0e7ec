export * from './config';
export * from './handshake';
export * from './subscription';
export * from './connection-limits';
export * from './event-stream';
export * from './realtime-server';
export * from './start-realtime';
