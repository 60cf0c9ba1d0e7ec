import { pagePositions, type ListContactsRequest, type ListContactsResponse } from '@mapi/contracts';
import { phonesInReach } from '../../chats/chat-views';
import { mapContact } from '../../contacts/map-contact';
import type { ContactRepository } from '../../repositories/contact-repository';

/**
 * GET /contacts: the organization's contacts by contact_id, narrowed to those the phones in reach
 * (x-phone, or the token's phones) have seen or created; paged as GET messages is.
 */
export class ListContacts {
  constructor(private readonly contacts: ContactRepository) {}

  async execute({ ctx, query }: ListContactsRequest): Promise<ListContactsResponse> {
    const rows = await this.contacts.list(ctx.org_id, phonesInReach(ctx), query.offset, query.limit);
    return { ...pagePositions(query.offset, rows.length), contacts: rows.map((r) => mapContact(r)) };
  }
}
