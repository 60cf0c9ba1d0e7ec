import {
  DropCustomPropertyRpc,
  DropLabelCopiesRpc,
  RenameLabelCopiesRpc,
  SetChatPropertiesRpc,
  type RequestContext,
  chatsOutOfReach,
  type SetChatPropertiesRequest,
} from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

/**
 * The chats service's side of chat labels and custom property values (its `chat_properties` and
 * `chat_labels`): the inbox owns the definitions, checks values against them, then asks it to set them.
 */
export interface ChatProperties {
  /** The chat ids no phone within the caller's reach holds (missing, another organization's). */
  missing(ctx: RequestContext, chatIds: string[]): Promise<string[]>;
  /** Sets the values on every chat named, all or nothing (404 ServiceError when any is out of reach); how many changed. */
  set(ctx: RequestContext, body: SetChatPropertiesRequest['body']): Promise<number>;
  /** Removes a deleted property's value from every chat of the organization. */
  drop(ctx: RequestContext, propertyId: string): Promise<number>;
  /** A label renamed: the copies chats (by id) and contacts (by name) keep follow; idempotent. */
  renameLabel(ctx: RequestContext, label: LabelCopy, newName: string): Promise<number>;
  /** A label being deleted: every chat (by id) or contact (by name) of the organization loses it. */
  dropLabel(ctx: RequestContext, label: LabelCopy): Promise<number>;
}

/** A catalogue label as the chats service's copies know it. */
export interface LabelCopy {
  label_id: string;
  type: 'chat' | 'ticket' | 'contact';
  name: string;
}

/** ChatProperties over `chats.v1.chat.in-reach`, `.set-properties`, `.drop-custom-property`, `.rename-label`, `.drop-label`. */
export class RpcChatProperties implements ChatProperties {
  constructor(private readonly rpc: NatsRpcClient) {}

  async missing(ctx: RequestContext, chatIds: string[]): Promise<string[]> {
    return chatsOutOfReach(this.rpc, ctx, chatIds);
  }

  async set(ctx: RequestContext, body: SetChatPropertiesRequest['body']): Promise<number> {
    return (await this.rpc.call(SetChatPropertiesRpc, { ctx, body })).updated;
  }

  async drop(ctx: RequestContext, propertyId: string): Promise<number> {
    return (await this.rpc.call(DropCustomPropertyRpc, { ctx, body: { property_id: propertyId } })).updated;
  }

  async renameLabel(ctx: RequestContext, label: LabelCopy, newName: string): Promise<number> {
    return (await this.rpc.call(RenameLabelCopiesRpc, { ctx, body: { ...label, new_name: newName } })).updated;
  }

  async dropLabel(ctx: RequestContext, label: LabelCopy): Promise<number> {
    return (await this.rpc.call(DropLabelCopiesRpc, { ctx, body: label })).updated;
  }
}
