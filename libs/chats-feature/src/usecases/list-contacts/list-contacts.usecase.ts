import { pagePositions, type ListContactsRequest, type ListContactsResponse } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapContact } from '../../contacts/map-contact';
import type { ContactRepository } from '../../repositories/contact-repository';

/**
 * GET /contacts: the organization's contacts by contact_id, narrowed to those the phones in reach
 * (x-phone, or the token's phones) have seen or created; paged as GET messages is.
 */
export class ListContacts {
  constructor(private readonly contacts: ContactRepository) {}

  async execute({ ctx, query }: ListContactsRequest): Promise<ListContactsResponse> {
    const reach = chatReach(ctx);
    const rows = await this.contacts.list(ctx.org_id, reach.phoneIds, query.offset, query.limit, reach.member);
    return { ...pagePositions(query.offset, rows.length), contacts: rows.map((r) => mapContact(r)) };
  }
}
