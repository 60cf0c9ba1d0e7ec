import type { RouteContract } from '../http/define-route';

/** The queue service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const QUEUE_ROUTES: readonly RouteContract[] = [];
