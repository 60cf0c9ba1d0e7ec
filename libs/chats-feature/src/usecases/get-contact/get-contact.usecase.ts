import { Errors, type Contact, type GetContactRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapContact } from '../../contacts/map-contact';
import type { ContactRepository } from '../../repositories/contact-repository';

/** The message of every "cannot see it" answer: a missing contact and another organization's read the same. */
export const CONTACT_NOT_FOUND = 'Contact not found';

/** GET /contacts/{contact_id}: the contact with the chat ids (1-1 and groups) it has on the phones in reach. */
export class GetContact {
  constructor(private readonly contacts: ContactRepository) {}

  async execute({ ctx, params }: GetContactRequest): Promise<Contact> {
    const { phoneIds, member } = chatReach(ctx);
    const row = await this.contacts.find(ctx.org_id, params.contact_id, phoneIds, member);
    if (!row) throw Errors.notFound(CONTACT_NOT_FOUND);
    return mapContact(row, await this.contacts.chatIds(ctx.org_id, row.contact_id, phoneIds, member));
  }
}
