import type { RouteContract } from '../http/define-route';
import { PARTICIPANT_ROUTES } from './participants/participants.contract';

export * from './participants/participants.contract';

/** The groups service's public routes. */
export const GROUPS_ROUTES: readonly RouteContract[] = [...PARTICIPANT_ROUTES];
