import type { RouteContract } from '../http/define-route';

/** The media service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const MEDIA_ROUTES: readonly RouteContract[] = [];
