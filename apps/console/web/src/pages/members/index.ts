import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { MembersPage } from './MembersPage';

export const membersPages: PageDef[] = [{ path: '/members', nav: 'Members', adminOnly: true, render: () => createElement(MembersPage) }];
