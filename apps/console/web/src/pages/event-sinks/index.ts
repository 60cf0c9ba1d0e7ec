import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { EventSinkPage } from './EventSinkPage';
import { EventSinksPage } from './EventSinksPage';

// In the first page's chunk (docs/services/console.md): lazy, the delivery log and list components it shares with the
// webhook pages went into a second chunk that every first page loaded.
// Every /v1/event-sinks route is `role: 'admin'` in the contracts: the gateway refuses a member's session.
export const eventSinksPages: PageDef[] = [
  { path: '/event-sinks', nav: 'Event sinks', adminOnly: true, render: () => createElement(EventSinksPage) },
  { path: '/event-sinks/:id', title: 'Event sink', adminOnly: true, render: ({ id }) => createElement(EventSinkPage, { id }) },
];
