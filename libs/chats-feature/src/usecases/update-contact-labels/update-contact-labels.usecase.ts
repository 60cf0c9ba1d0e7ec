import { Errors, labelNames, type UpdateContactLabelsRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ContactRepository } from '../../repositories/contact-repository';
import { CONTACT_NOT_FOUND } from '../get-contact/get-contact.usecase';

/**
 * PATCH /contacts/labels: replaces the labels of every contact named, all or nothing. Any id that
 * is not a contact in reach (missing, another organization's) is 404 and nothing changes.
 */
export class UpdateContactLabels {
  constructor(private readonly contacts: ContactRepository) {}

  async execute({ ctx, body }: UpdateContactLabelsRequest): Promise<null> {
    const reach = chatReach(ctx);
    const done = await this.contacts.relabel(ctx.org_id, body.contact_ids, reach.phoneIds, labelNames(body.labels), reach.member);
    if (!done) throw Errors.notFound(CONTACT_NOT_FOUND);
    return null;
  }
}
