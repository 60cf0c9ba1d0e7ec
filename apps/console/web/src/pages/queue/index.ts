import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { QueuePage } from './QueuePage';

export const queuePages: PageDef[] = [{ path: '/queue', nav: 'Queue', render: () => createElement(QueuePage) }];
