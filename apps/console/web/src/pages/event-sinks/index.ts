import { createElement, lazy, Suspense, type ReactNode } from 'react';
import type { PageDef } from '../../app/page';

/** Loaded when first opened (like Analytics and SLA): the first page does not grow with the sinks' forms. */
const EventSinksPage = lazy(() => import('./EventSinksPage').then((m) => ({ default: m.EventSinksPage })));
const EventSinkPage = lazy(() => import('./EventSinkPage').then((m) => ({ default: m.EventSinkPage })));

const whenLoaded = (page: ReactNode) => createElement(Suspense, { fallback: createElement('p', { role: 'status' }, 'Loading…') }, page);

// Every /v1/event-sinks route is `role: 'admin'` in the contracts: the gateway refuses a member's session.
export const eventSinksPages: PageDef[] = [
  { path: '/event-sinks', nav: 'Event sinks', adminOnly: true, render: () => whenLoaded(createElement(EventSinksPage)) },
  {
    path: '/event-sinks/:id',
    title: 'Event sink',
    adminOnly: true,
    render: ({ id }) => whenLoaded(createElement(EventSinkPage, { id })),
  },
];
