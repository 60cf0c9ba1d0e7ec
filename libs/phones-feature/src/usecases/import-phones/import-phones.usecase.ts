import { ImportPhoneItem, PHONE_ID, type ImportBatchResponse, type ImportItemResult, type ImportPhonesRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { newPhoneId } from '../../repositories/phone-repository';

const NUMBER = /^[0-9]{6,20}@c\.us$/;

/**
 * phones.v1.import.phones (the importer): each source phone as a phone of this organization to
 * reconnect by QR (not paired here), with its name, number and labels. Its phone_id is kept when no
 * phone here has it; a phone_id of another organization (a phone live there) gets a new one.
 */
export class ImportPhones {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly connector: string,
  ) {}

  async execute({ ctx, body }: ImportPhonesRequest): Promise<ImportBatchResponse> {
    const results: ImportItemResult[] = [];
    for (const raw of body.items) {
      const sourceId = String((raw as { source_id?: unknown })?.source_id ?? '');
      const item = ImportPhoneItem.safeParse(raw);
      if (!item.success) {
        results.push({
          source_id: sourceId,
          target_id: null,
          outcome: 'failed',
          reason: `not a phone: ${item.error.issues[0]?.path.join('.')} ${item.error.issues[0]?.message}`,
        });
        continue;
      }
      results.push(await this.importOne(ctx.org_id, item.data));
    }
    return { results };
  }

  private async importOne(
    orgId: string,
    p: { source_id: string; target_id?: string; phone_name?: string | null; org_phone?: string | null; labels?: string[] },
  ): Promise<ImportItemResult> {
    const fields = { phone_name: p.phone_name ?? null, labels: p.labels ?? [] };
    const candidates = [p.target_id, p.source_id].filter((id): id is string => !!id);
    const here = await this.prisma.phone.findFirst({
      where: { org_id: orgId, phone_id: { in: candidates } },
      orderBy: { created_at: 'asc' },
    });
    if (here) {
      const same = here.phone_name === fields.phone_name && JSON.stringify(here.labels) === JSON.stringify(fields.labels);
      if (!same) await this.prisma.phone.update({ where: { phone_id: here.phone_id }, data: { ...fields, updated_at: new Date() } });
      return { source_id: p.source_id, target_id: here.phone_id, outcome: same ? 'skipped' : 'updated' };
    }
    const taken = !PHONE_ID.test(p.source_id) || (await this.prisma.phone.count({ where: { phone_id: p.source_id } })) > 0;
    const phoneId = taken ? newPhoneId() : p.source_id;
    // The number is kept so that the history keeps its phone; pairing here sets it again.
    const orgPhone = p.org_phone && NUMBER.test(p.org_phone) ? p.org_phone : null;
    await this.prisma.phone.create({
      data: { phone_id: phoneId, org_id: orgId, org_phone: orgPhone, connector: this.connector, ...fields },
    });
    return { source_id: p.source_id, target_id: phoneId, outcome: 'created' };
  }
}
