import { createElement, lazy, Suspense } from 'react';
import type { PageDef } from '../../app/page';

/** Loaded when first opened (like Analytics): the first page does not grow with the SLA forms. */
const SlaPage = lazy(() => import('./SlaPage').then((m) => ({ default: m.SlaPage })));

// Reading is for every member (the list and get routes have no role); changes are owners' and admins' (role: 'admin').
export const slaPages: PageDef[] = [
  {
    path: '/sla',
    nav: 'SLA',
    render: () => createElement(Suspense, { fallback: createElement('p', { role: 'status' }, 'Loading…') }, createElement(SlaPage)),
  },
];
