import { DEFAULT_LABEL_COLOR, type CreateLabelRequest, type Label } from '@mapi/contracts';
import { mapLabel } from '../../map-label';
import type { LabelRepository } from '../../repositories/label-repository';

/** POST /labels/create: the label of that name and type, created when the organization has none (a retry makes no second). */
export class CreateLabel {
  constructor(private readonly labels: LabelRepository) {}

  async execute({ ctx, body }: CreateLabelRequest): Promise<Label> {
    return mapLabel(await this.labels.create(ctx.org_id, body.type ?? 'chat', body.name, body.color ?? DEFAULT_LABEL_COLOR));
  }
}
