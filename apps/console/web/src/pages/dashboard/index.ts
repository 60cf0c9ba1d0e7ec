import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { DashboardPage } from './DashboardPage';

export const dashboardPages: PageDef[] = [{ path: '/dashboard', nav: 'Right now', render: () => createElement(DashboardPage) }];
