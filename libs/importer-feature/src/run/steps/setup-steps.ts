import type { ImportJob, Step } from '../import-job';
import type { OwnedResource, OwnerItem } from '../owners';
import { readArray, readPages } from '../pages';
import { loadPhones, targetPhone } from './phones-step';

type Row = Record<string, unknown>;

/** Reads a paged listing (or, where the source has no such route, the given rows) and writes it through its owner. */
async function listed(
  job: ImportJob,
  resource: OwnedResource,
  path: string,
  key: string,
  idKey: string,
  fallback: Row[] | undefined,
  toItem: (row: Row) => OwnerItem | null,
  limit = 500,
) {
  const send = async (rows: Row[]) => {
    job.report.read(resource, rows.length);
    const items = rows.map(toItem).filter((i): i is OwnerItem => i !== null);
    await job.apply(resource, items);
  };
  const answered = await readPages<Row>(job.parts.source, path, key, limit, send);
  if (answered === null && fallback?.length) {
    for (let i = 0; i < fallback.length; i += limit) await send(fallback.slice(i, i + limit));
  }
  return idKey;
}

const id = (row: Row, key: string) => String(row[key] ?? '');

/** Translates the keys of a `{property_id: value}` record to ours (unknown ones are dropped). */
export function translateKeys(job: ImportJob, resource: string, record: unknown): Record<string, unknown> | null {
  if (!record || typeof record !== 'object') return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    const t = job.targetOf(resource, k);
    if (t) out[t] = v;
  }
  return out;
}

export const labelsStep: Step = {
  name: 'labels',
  run: async (job) => {
    await listed(job, 'labels', '/labels', 'labels', 'label_id', job.rows.tbl_org_labels, (r) => ({
      ...r,
      source_id: id(r, 'label_id') || id(r, 'id') || id(r, 'name'),
    }));
  },
};

export const customPropertiesStep: Step = {
  name: 'custom_properties',
  run: async (job) => {
    const answer = await job.parts.source.get<{ custom_properties?: Row[] }>('/custom-properties');
    const rows = Array.isArray(answer?.custom_properties) ? answer.custom_properties : [];
    job.report.read('custom_properties', rows.length);
    await job.apply(
      'custom_properties',
      rows.map((r) => ({ ...r, source_id: id(r, 'property_id') || id(r, 'id') })),
    );
  },
};

export const contactsStep: Step = {
  name: 'contacts',
  run: async (job) => {
    await job.idMapOf('labels');
    await listed(
      job,
      'contacts',
      '/contacts',
      'contacts',
      'contact_id',
      undefined,
      (r) => ({ ...r, source_id: id(r, 'contact_id') }),
      2000,
    );
  },
};

export const ticketsStep: Step = {
  name: 'tickets',
  run: async (job) => {
    await loadPhones(job);
    await Promise.all([job.idMapOf('custom_properties'), job.idMapOf('labels')]);
    await listed(job, 'tickets', '/tickets', 'tickets', 'ticket_id', undefined, (r) => {
      const phone = targetPhone(job, (r.phone_id as string) ?? (r.org_phone as string));
      const ticket = {
        ...r,
        custom_properties: translateKeys(job, 'custom_properties', r.custom_properties) ?? r.custom_properties,
        ...(r.label_ids && typeof r.label_ids === 'object' ? { label_ids: relabel(job, r.label_ids as Record<string, unknown>) } : {}),
        ...(phone ? { phone_id: phone } : {}),
      };
      return { source_id: id(r, 'ticket_id'), ticket, ...(phone ? { phone_id: phone } : {}) };
    });
  },
};

/** A ticket's `label_ids` with each source label's id here (a label given by name, or not brought, keeps its key). */
export function relabel(job: Pick<ImportJob, 'targetOf'>, ids: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ids).map(([k, v]) => [job.targetOf('labels', k) ?? k, v]));
}

export const notesStep: Step = {
  name: 'notes',
  run: async (job) => {
    await loadPhones(job);
    await listed(job, 'notes', '/note', 'notes', 'note_id', undefined, (r) => {
      const phone = targetPhone(job, (r.phone_id as string) ?? (r.org_phone as string));
      return { ...r, source_id: id(r, 'note_id') || id(r, 'message_id'), ...(phone ? { phone_id: phone } : {}) };
    });
  },
};

export const tasksStep: Step = {
  name: 'tasks',
  run: async (job) => {
    await job.idMapOf('tickets');
    await listed(job, 'tasks', '/tasks', 'tasks', 'task_id', job.rows.tbl_org_tasks, (r) => {
      const ticket = r.ticket_id ? job.targetOf('tickets', String(r.ticket_id)) : undefined;
      return { ...r, source_id: id(r, 'task_id') || id(r, 'id'), ...(ticket ? { ticket_id: ticket } : {}) };
    });
  },
};

const kbStep = (name: 'faqs' | 'documents', type: 'faq' | 'document'): Step => ({
  name,
  run: async (job) => {
    await readPages<Row>(
      job.parts.source,
      '/knowledge-base',
      'data',
      100,
      async (rows) => {
        job.report.read(name, rows.length);
        await job.apply(
          name,
          rows.map((r) => ({ ...r, source_id: id(r, 'id') || id(r, 'context_id') || id(r, 'document_id') })),
        );
      },
      { query: { type } },
    );
  },
});
export const faqsStep = kbStep('faqs', 'faq');
export const documentsStep = kbStep('documents', 'document');

/** Keeps whether the source had each record switched on: they come over off, and the cut-over switches these on. */
async function keepSwitches(job: ImportJob, resource: 'webhooks' | 'workflows', rows: Row[], key: string, onKey: string): Promise<void> {
  if (job.dryRun) return;
  await job.parts.idMap.recordSwitches(
    job.orgId,
    job.sourceKey,
    resource,
    rows.map((r) => ({ source_id: id(r, key), on: r[onKey] === true })),
  );
}

export const webhooksStep: Step = {
  name: 'webhooks',
  run: async (job) => {
    const rows = (await readArray<Row>(job.parts.source, '/webhooks')) ?? [];
    job.report.read('webhooks', rows.length);
    await job.apply(
      'webhooks',
      rows.map((r) => ({ ...r, source_id: id(r, 'id') })),
    );
    await keepSwitches(job, 'webhooks', rows, 'id', 'is_subscribed');
  },
};

export const workflowsStep: Step = {
  name: 'workflows',
  run: async (job) => {
    const seen: Row[] = [];
    await listed(job, 'workflows', '/workflows', 'workflows', 'id', job.rows.tbl_org_workflows, (r) => {
      seen.push(r);
      return { ...r, source_id: id(r, 'id') };
    });
    await keepSwitches(job, 'workflows', seen, 'id', 'is_active');
  },
};
