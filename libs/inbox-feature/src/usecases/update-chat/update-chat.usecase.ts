import { DEFAULT_LABEL_COLOR, labelNames, type ChatView, type SetChatPropertiesRequest, type UpdateChatRequest } from '@mapi/contracts';
import type { ChatLookup } from '../../chat-lookup';
import type { ChatProperties } from '../../chat-properties';
import { checkPropertyValues } from '../../custom-property-values';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import type { LabelRepository } from '../../repositories/label-repository';
import { chatNotFound } from '../update-chat-labels/update-chat-labels.usecase';

/**
 * PATCH /chats/{chat_id}: labels (replacing the chat's, unknown ones created), custom property values
 * (checked against the organization's definitions: 422 before anything is written) and the assignee.
 * A chat no phone in reach holds is 404 and nothing changes. Answers the chat as GET /chats/{chat_id}.
 */
export class UpdateChat {
  constructor(
    private readonly labels: LabelRepository,
    private readonly properties: CustomPropertyRepository,
    private readonly chats: ChatProperties,
    private readonly lookup: ChatLookup,
  ) {}

  async execute({ ctx, params, body }: UpdateChatRequest): Promise<ChatView> {
    const changes: SetChatPropertiesRequest['body'] = { chat_ids: [params.chat_id] };
    if (body.custom_properties !== undefined) {
      changes.custom_properties = checkPropertyValues(await this.properties.list(ctx.org_id, 'chat'), body.custom_properties);
    }
    if (body.assigned_to !== undefined) changes.assigned_to = body.assigned_to;
    if (body.labels !== undefined) {
      const names = labelNames(body.labels);
      // labels are created only for a chat in reach
      if (names.length && (await this.chats.missing(ctx, [params.chat_id])).length) throw chatNotFound();
      const labels = await this.labels.ensure(ctx.org_id, 'chat', names, DEFAULT_LABEL_COLOR);
      changes.labels = labels.map((l) => ({ label_id: l.label_id, name: l.name }));
    }
    await this.chats.set(ctx, changes);
    return this.lookup.chat(ctx, params.chat_id);
  }
}
