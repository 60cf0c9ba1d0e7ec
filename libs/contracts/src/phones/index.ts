import type { RouteContract } from '../http/define-route';

/** The phones service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const PHONES_ROUTES: readonly RouteContract[] = [];
