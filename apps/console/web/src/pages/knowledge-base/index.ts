import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { KnowledgeBasePage } from './KnowledgeBasePage';

export const knowledgeBasePages: PageDef[] = [
  { path: '/knowledge-base', nav: 'Knowledge base', render: () => createElement(KnowledgeBasePage) },
];
