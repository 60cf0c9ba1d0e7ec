import { Errors, type CloudApiTemplatesResponse, type ListCloudApiTemplatesRequest } from '@mapi/contracts';
import type { CloudApiStore } from '../cloud-api-store';
import type { GraphClient } from '../graph-client';
import { GraphError } from '../graph-errors';

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** GET /cloud-api/templates: the approved templates of the x-phone phone's business account, from the Graph API. */
export class ListCloudApiTemplates {
  constructor(
    private readonly store: CloudApiStore,
    private readonly graph: GraphClient,
  ) {}

  async execute({ ctx }: ListCloudApiTemplatesRequest): Promise<CloudApiTemplatesResponse> {
    const phoneId = ctx.phone?.phone_id;
    const phone = phoneId ? await this.store.load(phoneId) : null;
    // the gateway resolved x-phone within the organization; the organization is checked again here
    if (!phone || phone.org_id !== ctx.org_id)
      throw Errors.validation({ 'x-phone': { message: 'The phone is not a Cloud API phone: it has no templates' } });
    try {
      const data = await this.graph.templates(phone.waba_id, phone.access_token);
      return {
        templates: data.map((t) => ({
          name: text(t.name),
          language: text(t.language),
          status: text(t.status),
          category: typeof t.category === 'string' ? t.category : null,
          components: Array.isArray(t.components) ? t.components : [],
        })),
      };
    } catch (err) {
      if (err instanceof GraphError) throw Errors.phoneUnavailable(`The Graph API did not answer the templates: ${err.message}`);
      throw err;
    }
  }
}
