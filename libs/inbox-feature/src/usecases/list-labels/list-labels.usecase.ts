import { pagePositions, type ListLabelsRequest, type ListLabelsResponse } from '@mapi/contracts';
import { mapLabel } from '../../map-label';
import type { LabelRepository } from '../../repositories/label-repository';

/** GET /labels: the organization's labels by type and name, paged as spec 4.1. */
export class ListLabels {
  constructor(private readonly labels: LabelRepository) {}

  async execute({ ctx, query }: ListLabelsRequest): Promise<ListLabelsResponse> {
    const rows = await this.labels.list(ctx.org_id, query.type, query.offset, query.limit);
    return { ...pagePositions(query.offset, rows.length), labels: rows.map(mapLabel) };
  }
}
