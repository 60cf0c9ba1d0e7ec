import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { LabelsPage } from './LabelsPage';

// The labels routes are not admin-only: every member reads and creates the organization's labels.
export const labelsPages: PageDef[] = [{ path: '/labels', nav: 'Labels', render: () => createElement(LabelsPage) }];
