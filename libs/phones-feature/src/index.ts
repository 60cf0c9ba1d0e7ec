export * from './bootstrap';
export * from './connector/phone-connector';
export * from './sandbox/participant-actions';
