import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AdminError } from '@mapi/admin-feature';
import {
  CutoverRpc,
  GetImportRpc,
  ImportRowsSchema,
  ServiceError,
  StartImportRpc,
  type Import,
  type ImportRows,
  type RequestContext,
} from '@mapi/contracts';
import { NatsRpcClient, connectNats } from '@mapi/platform';
import { flag, optional, required, str, type Command, type Values } from './args';
import { table } from './format';

const POLL_MS = 500;
const MAX_RESTARTS = 3;

async function rowsOf(values: Values): Promise<ImportRows | undefined> {
  const file = optional(values, 'rows');
  if (file === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new AdminError(`--rows ${file}: ${(error as Error).message}`);
  }
  const rows = ImportRowsSchema.safeParse(parsed);
  if (!rows.success)
    throw new AdminError(`--rows ${file} must be a JSON object of tbl_org_workflows, tbl_org_tasks and tbl_org_labels row arrays`);
  return rows.data;
}

/** One line: the step under way, the history's chats as a bar, and the messages so far. */
export function progressLine(run: Import): string {
  const { chats_done: done, chats_total: total, step } = run.progress;
  const width = 24;
  const filled = total ? Math.round((done / Math.max(1, total)) * width) : 0;
  const bar = total ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} chats` : '';
  const messages = run.report.messages?.read ?? 0;
  return `${run.status} ${step ?? ''} ${bar} ${messages} messages`.replace(/\s+/g, ' ').trim();
}

export function reportTable(run: Import): string {
  const rows = Object.entries(run.report).map(([resource, c]) => [
    resource,
    String(c.read),
    String(c.created),
    String(c.updated),
    String(c.skipped),
    String(c.failed),
  ]);
  return rows.length ? table(['RESOURCE', 'READ', 'CREATED', 'UPDATED', 'SKIPPED', 'FAILED'], rows) : '(nothing read)';
}

/**
 * `import:hosted`: asks the importer service to import the source organization into --org and
 * follows the run until it ends, showing its progress on stderr. Running it again resumes an
 * interrupted or failed run at its checkpoint, or, after a completed one, brings what changed.
 */
export const importCommand: Command = {
  usage:
    'import:hosted --org ID --from URL --token TOKEN [--phones a,b] [--since ISO] [--dry-run] [--rows FILE] [--rate N] [--concurrency N]',
  summary:
    'import an organization from the hosted service (or another deployment) over its public API; rerun to resume or to bring what changed',
  options: { org: str, from: str, token: str, phones: str, since: str, 'dry-run': flag, rows: str, rate: str, concurrency: str },
  async run(values, admin, io) {
    const orgId = required(values, 'org', '<organization id>');
    const orgs = await admin.listOrganizations.execute();
    if (!orgs.some((o) => o.id === orgId)) throw new AdminError(`no organization ${orgId} (org:list shows them)`);
    const num = (name: string) => {
      const v = optional(values, name);
      if (v === undefined) return undefined;
      if (!/^[0-9]+(\.[0-9]+)?$/.test(v)) throw new AdminError(`--${name} must be a number, got "${v}"`);
      return Number(v);
    };
    const body = {
      from: required(values, 'from', '<source API base URL, e.g. https://api.example.com/v1>'),
      token: required(values, 'token', '<source API token>'),
      phones: optional(values, 'phones')
        ?.split(',')
        .map((p) => p.trim())
        .filter(Boolean),
      since: optional(values, 'since'),
      dry_run: values['dry-run'] === true,
      rows: await rowsOf(values),
      rate: num('rate'),
      concurrency: num('concurrency'),
    };
    const nc = await connectNats(process.env.NATS_URL || 'nats://127.0.0.1:4222', 'admin-cli').catch((error: Error) => {
      throw new AdminError(
        `cannot reach NATS (${error.message}): the importer service runs the import; start the stack first (npm run up)`,
      );
    });
    const rpc = new NatsRpcClient(nc, process.env.NAMESPACE || 'mapi', 30_000);
    const ctx: RequestContext = { org_id: orgId, token_id: randomUUID(), phone_scope: null, phone: null, member: null };
    try {
      let run = await rpc.call(StartImportRpc, { ctx, body }).catch(explain);
      io.progress?.(`import ${run.import_id} of ${run.source_url}${run.dry_run ? ' (dry run)' : ''}`);
      // A run whose replica died reads `interrupted` once its lease lapses: started again, it resumes.
      for (let restarts = 0; ;) {
        while (run.status === 'running' || run.status === 'queued') {
          await new Promise((r) => setTimeout(r, POLL_MS));
          run = await rpc.call(GetImportRpc, { ctx, params: { import_id: run.import_id } }).catch(explain);
          io.progress?.(progressLine(run));
        }
        if (run.status !== 'interrupted' || restarts++ >= MAX_RESTARTS) break;
        run = await rpc.call(StartImportRpc, { ctx, body }).catch(explain);
      }
      const head = `Import ${run.import_id} ${run.status}${run.dry_run ? ' (dry run: nothing was written)' : ''}`;
      const text = [head, reportTable(run), ...(run.error ? [`error: ${run.error.code}: ${run.error.message}`] : [])].join('\n');
      if (run.status !== 'completed') throw new AdminError(`${text}\nrun the same command again to resume from its checkpoint`);
      return { json: run, text };
    } finally {
      await rpc.close();
      await nc.close();
    }
  },
};

function explain(error: unknown): never {
  const e = error as Partial<ServiceError> & Error;
  if (e?.code === 'SERVICE_UNAVAILABLE_ERROR' || e?.code === 'TIMEOUT_ERROR')
    throw new AdminError(`the importer service does not answer (${e.message}): is it running (npm run up)?`);
  throw error;
}

/** `import:cutover`: switches on the webhooks and workflows the import brought switched off (the source had them on). */
export const cutoverCommand: Command = {
  usage: 'import:cutover --org ID --import IMPORT_ID',
  summary: "the move's last step: switch on the imported webhooks and workflows that the source had on",
  options: { org: str, import: str },
  async run(values) {
    const orgId = required(values, 'org', '<organization id>');
    const importId = required(values, 'import', '<import id (import:hosted prints it)>');
    const nc = await connectNats(process.env.NATS_URL || 'nats://127.0.0.1:4222', 'admin-cli').catch((error: Error) => {
      throw new AdminError(`cannot reach NATS (${error.message}): start the stack first (npm run up)`);
    });
    const rpc = new NatsRpcClient(nc, process.env.NAMESPACE || 'mapi', 60_000);
    try {
      const ctx: RequestContext = { org_id: orgId, token_id: randomUUID(), phone_scope: null, phone: null, member: null };
      const answer = await rpc.call(CutoverRpc, { ctx, params: { import_id: importId } }).catch(explain);
      const lines = [
        `Switched on: ${answer.switched_on.webhooks ?? 0} webhooks, ${answer.switched_on.workflows ?? 0} workflows`,
        ...answer.failed.map((f) => `  not switched on: ${f.resource} ${f.id}: ${f.reason}`),
      ];
      if (answer.failed.length) throw new AdminError(`${lines.join('\n')}\nrun it again once the cause is fixed`);
      return { json: answer, text: lines.join('\n') };
    } finally {
      await rpc.close();
      await nc.close();
    }
  },
};
