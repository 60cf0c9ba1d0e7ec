import type { DeleteLabelRequest, Label } from '@mapi/contracts';
import type { ChatProperties } from '../../chat-properties';
import { mapLabel } from '../../map-label';
import type { LabelRepository } from '../../repositories/label-repository';
import { labelCopy, labelNotFound } from '../update-label/update-label.usecase';

/**
 * DELETE /labels/{label_id}: the chats and contacts that carry the label lose it first (the chats
 * service's rows), then the label goes with its name on tickets (one transaction); a failure between
 * leaves the label, so a retry finishes. A second sweep after the delete catches a chat labelled with
 * it while this ran (naming the label again after that creates a new one). No event per chat.
 */
export class DeleteLabel {
  constructor(
    private readonly labels: LabelRepository,
    private readonly chats: ChatProperties,
  ) {}

  async execute({ ctx, params }: DeleteLabelRequest): Promise<Label> {
    const current = await this.labels.find(ctx.org_id, params.label_id);
    if (!current) throw labelNotFound();
    const copies = current.type !== 'ticket';
    if (copies) await this.chats.dropLabel(ctx, labelCopy(current));
    const row = await this.labels.delete(ctx.org_id, params.label_id);
    if (!row) throw labelNotFound();
    if (copies) await this.chats.dropLabel(ctx, labelCopy(row));
    return mapLabel(row);
  }
}
