export * from './bootstrap';
export * from './groups.handlers';
export * from './usecases/change-participants/participant-outcomes';
