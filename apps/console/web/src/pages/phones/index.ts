import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { PhonesPage } from './PhonesPage';

export const phonesPages: PageDef[] = [{ path: '/phones', nav: 'Phones', render: () => createElement(PhonesPage) }];
