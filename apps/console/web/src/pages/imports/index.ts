import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { ImportsPage } from './ImportsPage';

// The imports routes are `role: 'owner'` in the contracts: the gateway refuses admins' and members' sessions.
export const importsPages: PageDef[] = [{ path: '/imports', nav: 'Import', ownerOnly: true, render: () => createElement(ImportsPage) }];
