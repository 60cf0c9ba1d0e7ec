import type { Workflow } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapWorkflow } from '../map-workflow';

type Tx = Prisma.TransactionClient;

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
  private readonly byOrg = new Map<string, { signature: string; byTrigger: Map<string, Workflow[]> }>();

  /** The organization's enabled workflows by trigger, as of now (read again only if any of its rows changed). */
  async of(tx: Tx, orgIds: string[]): Promise<Map<string, Map<string, Workflow[]>>> {
    const out = new Map<string, Map<string, Workflow[]>>();
    if (!orgIds.length) return out;
    const probes = await tx.$queryRaw<{ org_id: string; signature: string }[]>`
      SELECT org_id::text, count(*)::text || ':' || sum(xmin::text::bigint)::text AS signature
      FROM automation_workflows WHERE org_id = ANY(${orgIds}::uuid[]) GROUP BY org_id`;
    const signatures = new Map(probes.map((p) => [p.org_id, p.signature]));
    const stale = orgIds.filter((org) => this.byOrg.get(org)?.signature !== (signatures.get(org) ?? '0'));
    if (stale.length) {
      const rows = await tx.automationWorkflow.findMany({ where: { org_id: { in: stale }, is_active: true, deleted_at: null } });
      const fresh = new Map(stale.map((org) => [org, new Map<string, Workflow[]>()]));
      for (const w of rows.map(mapWorkflow)) {
        const byTrigger = fresh.get(w.org_id);
        byTrigger?.set(w.trigger, [...(byTrigger.get(w.trigger) ?? []), w]);
      }
      for (const [org, byTrigger] of fresh) this.byOrg.set(org, { signature: signatures.get(org) ?? '0', byTrigger });
    }
    for (const org of orgIds) out.set(org, this.byOrg.get(org)?.byTrigger ?? new Map());
    return out;
  }

  /** Forgets an organization (tests; a replica never needs it: the probe sees every change). */
  clear(): void {
    this.byOrg.clear();
  }
}
