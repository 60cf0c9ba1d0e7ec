import type { ChatCopiesWithLabelRequest, ChatCopy } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ChatCountsRepository } from '../../repositories/chat-counts-repository';

/** chats.v1.chat.copies-with-label (internal, asked by analytics for figures by label): the given copies within reach carrying the label. */
export class CopiesWithLabel {
  constructor(private readonly counts: ChatCountsRepository) {}

  async execute({ ctx, body }: ChatCopiesWithLabelRequest): Promise<{ labelled: ChatCopy[] }> {
    return { labelled: await this.counts.withLabel(ctx.org_id, chatReach(ctx), body.copies, body.label) };
  }
}
