import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { TicketPage } from './TicketPage';
import { TicketsPage } from './TicketsPage';

export const ticketsPages: PageDef[] = [
  { path: '/tickets', nav: 'Tickets', render: () => createElement(TicketsPage) },
  { path: '/tickets/:id', title: 'Ticket', render: ({ id }) => createElement(TicketPage, { id }) },
];
