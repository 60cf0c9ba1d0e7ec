import type { RouteContract } from '../http/define-route';
import { GROUP_LIFECYCLE_ROUTES } from './lifecycle/group-lifecycle.contract';
import { PARTICIPANT_ROUTES } from './participants/participants.contract';

export * from './participants/participants.contract';
export * from './lifecycle/group-lifecycle.contract';

/** The groups service's public routes. */
export const GROUPS_ROUTES: readonly RouteContract[] = [...PARTICIPANT_ROUTES, ...GROUP_LIFECYCLE_ROUTES];
