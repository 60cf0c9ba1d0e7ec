import { randomUUID } from 'node:crypto';
import { ErrorCode, ServiceError, type Import, type StartImportRequest } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapImport } from '../../map-import';
import type { ImportRunRepository } from '../../repositories/import-run-repository';
import type { ImportLauncher } from '../../run/import-launcher';

export const DEFAULT_RATE = 20;
export const DEFAULT_CONCURRENCY = 4;

/** The source base URL as runs are keyed: no trailing slash, no query or fragment. */
export function normalizeSourceUrl(from: string): string {
  const u = new URL(from);
  u.hash = '';
  u.search = '';
  return u.toString().replace(/\/+$/, '');
}

/**
 * POST /imports: starts an import of the source into the caller's organization, or resumes the
 * unfinished run of the same source at its checkpoint (a killed importer, a failed source), or
 * answers the run already under way (here or on another replica). A completed earlier run is followed by a new one that brings
 * only what changed (its id map and chat marks are the source's, not the run's).
 */
export class StartImport {
  constructor(
    private readonly runs: ImportRunRepository,
    private readonly launcher: ImportLauncher,
  ) {}

  async execute({ ctx, body }: StartImportRequest): Promise<Import> {
    if (ctx.phone_scope !== null)
      throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, 'An import needs a token that reaches every phone of the organization');
    const sourceUrl = normalizeSourceUrl(body.from);
    const dryRun = body.dry_run ?? false;
    const options = {
      phones: body.phones ?? null,
      since: body.since ?? null,
      rate: body.rate ?? DEFAULT_RATE,
      concurrency: body.concurrency ?? DEFAULT_CONCURRENCY,
    };
    let run = await this.runs.findUnfinished(ctx.org_id, sourceUrl);
    if (run && this.launcher.isRunning(run.import_id)) {
      if (run.dry_run !== dryRun)
        throw new ServiceError(ErrorCode.ERROR, 409, `An import of this source is under way (${run.import_id}); wait for it to end`);
      return mapImport(run);
    }
    if (run && run.dry_run !== dryRun) run = null; // a dry run never resumes a real one, nor the other way
    if (!run) {
      run = await this.runs.create({
        import_id: randomUUID(),
        org_id: ctx.org_id,
        source_url: sourceUrl,
        dry_run: dryRun,
        options: options as Prisma.InputJsonValue,
        status: 'queued',
      });
    } else {
      await this.runs.save(ctx.org_id, run.import_id, { options: options as Prisma.InputJsonValue });
    }
    // Another replica holds it (or a replica that died and whose lease has not lapsed yet): answered as
    // it is; it reads `interrupted` once the lease lapses, and starting it again then resumes it here.
    if (!(await this.runs.claim(ctx.org_id, run.import_id))) return mapImport(run);
    const claimed = await this.runs.find(ctx.org_id, run.import_id);
    if (!claimed) throw new ServiceError(ErrorCode.NOT_FOUND_ERROR, 404, 'Import not found');
    this.launcher.launch({ run: claimed, token: body.token, rows: body.rows ?? {}, rate: options.rate, concurrency: options.concurrency });
    return mapImport(claimed);
  }
}
