import { labelNames, type Contact, type CreateContactRequest } from '@mapi/contracts';
import { phonesInReach } from '../../chats/chat-views';
import { mapContact } from '../../contacts/map-contact';
import type { ContactRepository } from '../../repositories/contact-repository';

/**
 * POST /contacts/create: creates the contact, or names an existing one (a retry answers the same
 * contact). It joins the phones in reach (x-phone, else the token's phones); an unscoped request
 * without x-phone adds no phone, so the contact stays the organization's, seen by unscoped
 * requests, until a phone sees it.
 */
export class CreateContact {
  constructor(private readonly contacts: ContactRepository) {}

  async execute({ ctx, body }: CreateContactRequest): Promise<Contact> {
    const reach = phonesInReach(ctx);
    const row = await this.contacts.create(ctx.org_id, body.contact_id, reach ?? [], {
      contact_name: body.contact_name,
      is_internal: body.is_internal,
      labels: body.labels === undefined ? undefined : labelNames(body.labels),
    });
    return mapContact(row, await this.contacts.chatIds(ctx.org_id, row.contact_id, reach));
  }
}
