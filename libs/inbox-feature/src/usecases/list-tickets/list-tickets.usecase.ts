import { Errors, pagePositions, type ListTicketsRequest, type ListTicketsResponse } from '@mapi/contracts';
import { readValue } from '../../custom-property-values';
import { rowPhones, visiblePage, type ChatReachCheck } from '../../member-reach';
import { mapTicketJson } from '../../map-ticket';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import type { TicketFilter, TicketRepository } from '../../repositories/ticket-repository';

/** GET /tickets: a page of the organization's tickets of the phones in reach, newest first, filtered. */
export class ListTickets {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly reach: ChatReachCheck,
    private readonly properties: CustomPropertyRepository,
  ) {}

  async execute({ ctx, query }: ListTicketsRequest): Promise<ListTicketsResponse> {
    const { offset, limit, custom_property, custom_property_value, ...rest } = query;
    const filter: TicketFilter =
      custom_property === undefined || custom_property_value === undefined
        ? rest
        : { ...rest, custom_property: await this.propertyValue(ctx.org_id, custom_property, custom_property_value) };
    const rows = await visiblePage(
      this.reach,
      ctx,
      (o, l) => this.tickets.listJson(ctx.org_id, rowPhones(ctx), filter, o, l),
      offset,
      limit,
    );
    return { ...pagePositions(offset, rows.length), tickets: rows.map(mapTicketJson) };
  }

  /**
   * The organization's ticket property named by id, or by name in any case (as PATCH takes it), and the
   * value read as its type, as it is stored: 422 on the query field that is wrong.
   */
  private async propertyValue(orgId: string, key: string, raw: string): Promise<{ property_id: string; value: string }> {
    const definitions = await this.properties.list(orgId, 'ticket');
    const def =
      definitions.find((d) => d.property_id === key) ?? definitions.find((d) => d.property_name.toLowerCase() === key.toLowerCase());
    if (!def)
      throw Errors.validation({
        custom_property: {
          message: `the organization has no ticket custom property named ${JSON.stringify(key)} (or of that id)`,
          value: key,
        },
      });
    const read = readValue(def, raw);
    if ('problem' in read)
      throw Errors.validation({ custom_property_value: { message: `${def.property_name} ${read.problem}`, value: raw } });
    return { property_id: def.property_id, value: read.value };
  }
}
