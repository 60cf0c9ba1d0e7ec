export * from './jetstream';
export * from './outbox';
export * from './phone-sessions';
export * from './outbox-wakeups';
export * from './session-connection';
export * from './due-work-loop';
