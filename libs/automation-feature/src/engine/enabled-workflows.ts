import type { Workflow } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapWorkflow } from '../map-workflow';

type Tx = Prisma.TransactionClient;

const digits = (s: unknown) => String(s ?? '').replace(/\D/g, '');

/**
 * An organization's enabled workflows of one trigger, indexed by the phones their
 * `trigger_metadata.org_phones` name (by id, and by number's digits), so an event is matched against
 * the workflows of its phone and those of every phone, not against all of them (matching every event of a
 * batch against every workflow would be a large share of the intake's CPU). `candidates` may answer more than take the event
 * (admission decides, refusalOf), never fewer; in the order the workflows were read.
 */
export class TriggerWorkflows {
  private readonly everyPhone: number[] = [];
  private readonly byPhone = new Map<string, number[]>();

  constructor(readonly all: Workflow[]) {
    all.forEach((w, i) => {
      const phones = w.trigger_metadata.org_phones ?? [];
      if (!phones.length) return void this.everyPhone.push(i);
      const keys = new Set(phones.flatMap((p) => [`id:${p}`, ...(digits(p) ? [`num:${digits(p)}`] : [])]));
      for (const k of keys) this.byPhone.set(k, [...(this.byPhone.get(k) ?? []), i]);
    });
  }

  /** The workflows that may take an event of this phone (id, or the number in `data.org_phone`). */
  candidates(event: { phone_id?: string | null; data: Record<string, unknown> }): Workflow[] {
    const number = digits(event.data.org_phone);
    const hits = [
      ...this.everyPhone,
      ...(typeof event.phone_id === 'string' ? (this.byPhone.get(`id:${event.phone_id}`) ?? []) : []),
      ...(number ? (this.byPhone.get(`num:${number}`) ?? []) : []),
    ];
    return [...new Set(hits)].sort((a, b) => a - b).map((i) => this.all[i]);
  }
}

/**
 * The enabled workflows of organizations, kept per organization by the intake so a batch of events
 * does not read (and map) every workflow again: before each use the organization's rows are probed —
 * their count and the sum of their row versions (xmin, which every INSERT and UPDATE of a row
 * changes, whichever replica or route wrote it) — and read again only when that signature changed.
 * So a create, update, enable/disable or delete takes effect at the next batch in every replica, with
 * no clock involved (an updated_at could commit out of order) and no notification to lose. The probe
 * is one index scan of the organizations' workflow rows, without their definitions.
 */
export class EnabledWorkflows {
  private readonly byOrg = new Map<string, { signature: string; byTrigger: Map<string, TriggerWorkflows> }>();

  /** The organization's enabled workflows by trigger, as of now (read again only if any of its rows changed). */
  async of(tx: Tx, orgIds: string[]): Promise<Map<string, Map<string, TriggerWorkflows>>> {
    const out = new Map<string, Map<string, TriggerWorkflows>>();
    if (!orgIds.length) return out;
    const probes = await tx.$queryRaw<{ org_id: string; signature: string }[]>`
      SELECT org_id::text, count(*)::text || ':' || sum(xmin::text::bigint)::text AS signature
      FROM automation_workflows WHERE org_id = ANY(${orgIds}::uuid[]) GROUP BY org_id`;
    const signatures = new Map(probes.map((p) => [p.org_id, p.signature]));
    const stale = orgIds.filter((org) => this.byOrg.get(org)?.signature !== (signatures.get(org) ?? '0'));
    if (stale.length) {
      const rows = await tx.automationWorkflow.findMany({
        where: { org_id: { in: stale }, is_active: true, deleted_at: null },
        orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
      });
      const fresh = new Map(stale.map((org) => [org, new Map<string, Workflow[]>()]));
      for (const w of rows.map(mapWorkflow)) {
        const byTrigger = fresh.get(w.org_id);
        byTrigger?.set(w.trigger, [...(byTrigger.get(w.trigger) ?? []), w]);
      }
      for (const [org, byTrigger] of fresh) {
        const indexed = new Map([...byTrigger].map(([trigger, ws]) => [trigger, new TriggerWorkflows(ws)]));
        this.byOrg.set(org, { signature: signatures.get(org) ?? '0', byTrigger: indexed });
      }
    }
    for (const org of orgIds) out.set(org, this.byOrg.get(org)?.byTrigger ?? new Map());
    return out;
  }

  /** Forgets an organization (tests; a replica never needs it: the probe sees every change). */
  clear(): void {
    this.byOrg.clear();
  }
}
