import { createElement, lazy, Suspense } from 'react';
import type { PageDef } from '../../app/page';

/** Loaded when first opened: the page and its chart library are a chunk of their own, so the first page stays as small. */
const AnalyticsPage = lazy(() => import('./AnalyticsPage').then((m) => ({ default: m.AnalyticsPage })));

export const analyticsPages: PageDef[] = [
  {
    path: '/analytics',
    nav: 'Analytics',
    render: () => createElement(Suspense, { fallback: createElement('p', { role: 'status' }, 'Loading…') }, createElement(AnalyticsPage)),
  },
];
