import type { ListKbEntriesRequest, ListKbEntriesResponse } from '@mapi/contracts';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { mapKbEntry } from '../../entries/map-kb-entry';

/** GET /knowledge-base: a page of the organization's entries, newest first; `count` is the total matching. */
export class ListKbEntries {
  constructor(private readonly entries: KbEntryRepository) {}

  async execute({ ctx, query }: ListKbEntriesRequest): Promise<ListKbEntriesResponse> {
    const { rows, count } = await this.entries.list(
      ctx.org_id,
      { type: query.type, isActive: query.is_active },
      { offset: query.offset, limit: query.limit },
    );
    return { data: rows.map(mapKbEntry), count };
  }
}
