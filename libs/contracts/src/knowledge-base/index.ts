import type { RouteContract } from '../http/define-route';

/** The knowledge-base service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const KNOWLEDGE_BASE_ROUTES: readonly RouteContract[] = [];
