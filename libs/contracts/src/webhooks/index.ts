import type { RouteContract } from '../http/define-route';

/** The webhooks service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const WEBHOOKS_ROUTES: readonly RouteContract[] = [];
