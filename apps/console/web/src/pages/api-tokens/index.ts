import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { ApiTokensPage } from './ApiTokensPage';

// The token routes are `role: 'admin'` in the contracts: the gateway refuses a member's session.
export const apiTokensPages: PageDef[] = [
  { path: '/api-tokens', nav: 'API tokens', adminOnly: true, render: () => createElement(ApiTokensPage) },
];
