import type { RouteContract } from '../http/define-route';
import { PHONE_ROUTES } from './routes/phone-routes.contract';
import { SANDBOX_ROUTES } from './sandbox/sandbox-routes.contract';
import { CLOUD_API_ROUTES } from './cloud-api';

export * from './phone/phone.schema';
export * from './directory/phone-directory.contract';
export * from './import-phones/import-phones.contract';
export * from './ingest/ingest-events';
export * from './routes/phone-routes.contract';
export * from './sandbox/sandbox-routes.contract';
export * from './sandbox/sandbox-message-changes.contract';
export * from './session/session-command';
export * from './session/send-unique-id';
export * from './cloud-api';

/** The phones service's public routes, and the sandbox network's control routes. */
export const PHONES_ROUTES: readonly RouteContract[] = [...PHONE_ROUTES, ...SANDBOX_ROUTES, ...CLOUD_API_ROUTES];
