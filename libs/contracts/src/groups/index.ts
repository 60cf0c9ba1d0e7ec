import type { RouteContract } from '../http/define-route';

/** The groups service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const GROUPS_ROUTES: readonly RouteContract[] = [];
