import { Errors, type Label, type UpdateLabelRequest } from '@mapi/contracts';
import type { ChatProperties, LabelCopy } from '../../chat-properties';
import { mapLabel } from '../../map-label';
import type { LabelRepository, LabelRow } from '../../repositories/label-repository';

export const labelNotFound = () => Errors.notFound('Label not found');
const nameTaken = (type: string, name: string) =>
  Errors.validation({ 'body.name': { message: `the organization has a ${type} label named ${name} already` } });

/** The copies' view of a label row. */
export const labelCopy = (row: LabelRow): LabelCopy => ({ label_id: row.label_id, type: row.type as LabelCopy['type'], name: row.name });

/**
 * PATCH /labels/{label_id}: renames a label and/or changes its colour. A rename is carried to the
 * copies first (the chats service's chat_labels names and contact labels; tickets' names with the
 * catalogue row, in one transaction), so a failure between the two leaves the catalogue under the old
 * name and a retry finishes; a name clash found only at the write (a racing create) puts the copies back.
 * Chat copies are swept once more after the catalogue commits (by id: a chat labelled concurrently
 * under the old name).
 */
export class UpdateLabel {
  constructor(
    private readonly labels: LabelRepository,
    private readonly chats: ChatProperties,
  ) {}

  async execute({ ctx, params, body }: UpdateLabelRequest): Promise<Label> {
    const current = await this.labels.find(ctx.org_id, params.label_id);
    if (!current) throw labelNotFound();
    const rename = body.name !== undefined && body.name !== current.name ? body.name : null;
    if (rename !== null) {
      if (await this.labels.findByName(ctx.org_id, current.type, rename)) throw nameTaken(current.type, rename);
      await this.chats.renameLabel(ctx, labelCopy(current), rename);
    }
    const row = await this.labels.update(ctx.org_id, params.label_id, {
      ...(rename !== null ? { name: rename } : {}),
      ...(body.color ? { color: body.color } : {}),
    });
    if (row === 'missing' || row === 'name-taken') {
      if (rename !== null) await this.chats.renameLabel(ctx, { ...labelCopy(current), name: rename }, current.name);
      if (row === 'missing') throw labelNotFound();
      throw nameTaken(current.type, rename ?? current.name);
    }
    // a chat labelled meanwhile under the old name (its set-properties read the label before the rename) is renamed too
    if (rename !== null && row.type === 'chat') await this.chats.renameLabel(ctx, labelCopy(current), rename);
    return mapLabel(row);
  }
}
