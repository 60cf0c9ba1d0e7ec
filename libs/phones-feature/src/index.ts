export * from './bootstrap';
export * from './phones.handlers';
export * from './cloud-api/cloud-api.handlers';
export * from './connector/phone-connector';
export * from './sandbox/participant-actions';
