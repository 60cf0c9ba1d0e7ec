import {
  DEFAULT_LABEL_COLOR,
  ImportLabelItem,
  type ImportBatchResponse,
  type ImportItemResult,
  type ImportLabelsRequest,
  type RequestContext,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { ChatProperties } from '../../chat-properties';
import { isDuplicateKey } from '../../rows/pg-errors';
import { date, eachItem } from '../../imports/import-items';
import { findKept, newKeptId, uuidId } from '../../imports/kept-id';
import { LabelRepository } from '../../repositories/label-repository';
import { UpdateLabel } from '../update-label/update-label.usecase';

/**
 * inbox.v1.import.labels (the importer): the source's labels. Names are unique per organization and
 * type, so a label of the same type and name here is the same label (its colour follows the
 * source's). Otherwise the row the id map or the source's id names is renamed as PATCH /labels would
 * (the copies chats and contacts keep follow, no event); else a new label, at the source's id when it
 * is a free uuid.
 */
export class ImportLabels {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chats: ChatProperties,
  ) {}

  async execute({ ctx, body }: ImportLabelsRequest): Promise<ImportBatchResponse> {
    return { results: await eachItem(body.items, ImportLabelItem, (item) => this.one(ctx, item)) };
  }

  private async one(ctx: RequestContext, item: ImportLabelItem): Promise<ImportItemResult> {
    const labels = new LabelRepository(this.prisma);
    const type = item.type ?? 'chat';
    const result = (target_id: string, outcome: ImportItemResult['outcome']): ImportItemResult => ({
      source_id: item.source_id,
      target_id,
      outcome,
    });
    const named = await labels.findByName(ctx.org_id, type, item.name);
    if (named) {
      if (!item.color || item.color === named.color) return result(named.label_id, 'skipped');
      await labels.update(ctx.org_id, named.label_id, { color: item.color });
      return result(named.label_id, 'updated');
    }
    const kept = await findKept(this.prisma.inboxLabel, 'label_id', ctx.org_id, item, uuidId);
    if (kept && kept.type === type) {
      const renamed = await new UpdateLabel(labels, this.chats).execute({
        ctx,
        params: { label_id: kept.label_id },
        body: { name: item.name, ...(item.color ? { color: item.color } : {}) },
      });
      return result(renamed.label_id, 'updated');
    }
    const labelId = await newKeptId(this.prisma.inboxLabel, 'label_id', item, uuidId);
    try {
      await this.prisma.inboxLabel.create({
        data: {
          label_id: labelId,
          org_id: ctx.org_id,
          type,
          name: item.name,
          color: item.color ?? DEFAULT_LABEL_COLOR,
          created_at: date(item.created_at) ?? new Date(),
        },
      });
    } catch (error) {
      // the same label made meanwhile by a racing request: it is this one
      const raced = isDuplicateKey(error) ? await labels.findByName(ctx.org_id, type, item.name) : null;
      if (!raced) throw error;
      return result(raced.label_id, 'skipped');
    }
    return result(labelId, 'created');
  }
}
