export * from './bootstrap';
export * from './usecases/change-participants/participant-outcomes';
