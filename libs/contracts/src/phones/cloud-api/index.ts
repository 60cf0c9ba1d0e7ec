export * from './cloud-api-credentials';
export * from './cloud-api-webhook.contract';
export * from './cloud-api-template';
export * from './cloud-api-templates.contract';
