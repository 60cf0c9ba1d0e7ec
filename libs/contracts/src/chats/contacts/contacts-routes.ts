import type { RouteContract } from '../../http/define-route';
import { CreateContactRoute } from './create-contact.contract';
import { GetContactRoute } from './get-contact.contract';
import { ListContactsRoute } from './list-contacts.contract';
import { UpdateContactLabelsRoute } from './update-contact-labels.contract';
import { UpdateContactRoute } from './update-contact.contract';

/** The contacts routes of the chats service (joined into CHATS_ROUTES). */
export const CONTACTS_ROUTES: readonly RouteContract[] = [
  ListContactsRoute,
  GetContactRoute,
  UpdateContactRoute,
  UpdateContactLabelsRoute,
  CreateContactRoute,
];
