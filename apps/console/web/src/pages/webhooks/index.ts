import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { WebhookPage } from './WebhookPage';
import { WebhooksPage } from './WebhooksPage';

// Every webhooks route is `role: 'admin'` in the contracts: the gateway refuses a member's session.
export const webhooksPages: PageDef[] = [
  { path: '/webhooks', nav: 'Webhooks', adminOnly: true, render: () => createElement(WebhooksPage) },
  { path: '/webhooks/:id', title: 'Webhook subscription', adminOnly: true, render: ({ id }) => createElement(WebhookPage, { id }) },
];
