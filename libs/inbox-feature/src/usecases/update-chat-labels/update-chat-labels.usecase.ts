import { DEFAULT_LABEL_COLOR, Errors, labelNames, type UpdateChatLabelsRequest } from '@mapi/contracts';
import type { ChatProperties } from '../../chat-properties';
import type { LabelRepository } from '../../repositories/label-repository';

export const chatNotFound = () => Errors.notFound('Chat not found');

/**
 * PATCH /chats/labels: replaces the labels of every chat named, all or nothing. The chats are checked
 * first (any out of reach: 404, nothing changes, no label created), then unknown label names are
 * created, then the chats service sets them (checking reach again, in its transaction).
 */
export class UpdateChatLabels {
  constructor(
    private readonly labels: LabelRepository,
    private readonly chats: ChatProperties,
  ) {}

  async execute({ ctx, body }: UpdateChatLabelsRequest): Promise<null> {
    const chatIds = [...new Set(body.chat_ids)];
    if ((await this.chats.missing(ctx, chatIds)).length) throw chatNotFound();
    const labels = await this.labels.ensure(ctx.org_id, 'chat', labelNames(body.labels), DEFAULT_LABEL_COLOR);
    await this.chats.set(ctx, { chat_ids: chatIds, labels: labels.map((l) => ({ label_id: l.label_id, name: l.name })) });
    return null;
  }
}
