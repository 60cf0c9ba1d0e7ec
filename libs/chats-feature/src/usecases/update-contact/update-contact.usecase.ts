import { Errors, labelNames, type Contact, type UpdateContactRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapContact } from '../../contacts/map-contact';
import type { ContactRepository } from '../../repositories/contact-repository';
import { CONTACT_NOT_FOUND } from '../get-contact/get-contact.usecase';

/**
 * PATCH /contacts/{contact_id}: the API's name (never overwritten by the network's push name),
 * is_internal and labels, as given. 404, nothing changed, for a contact not in reach.
 */
export class UpdateContact {
  constructor(private readonly contacts: ContactRepository) {}

  async execute({ ctx, params, body }: UpdateContactRequest): Promise<Contact> {
    const { phoneIds, member } = chatReach(ctx);
    const changes = {
      contact_name: body.contact_name,
      is_internal: body.is_internal,
      labels: body.labels === undefined ? undefined : labelNames(body.labels),
    };
    const row = await this.contacts.update(ctx.org_id, params.contact_id, phoneIds, changes, member);
    if (!row) throw Errors.notFound(CONTACT_NOT_FOUND);
    return mapContact(row, await this.contacts.chatIds(ctx.org_id, row.contact_id, phoneIds, member));
  }
}
