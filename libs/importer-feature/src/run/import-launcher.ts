import type { ImportRows, RequestContext } from '@mapi/contracts';
import type { Logger, AddressPolicy, NatsRpcClient } from '@mapi/platform';
import type { FailureRepository } from '../repositories/failure-repository';
import type { IdMapRepository } from '../repositories/id-map-repository';
import type { ImportRunRepository, ImportRunRow } from '../repositories/import-run-repository';
import { MediaCopier, type MediaCopierOptions } from '../media/media-copier';
import { SourceClient } from '../source/source-client';
import { ImportJob } from './import-job';
import { Owners } from './owners';
import { IMPORT_STEPS } from './steps';

export interface LaunchInput {
  run: ImportRunRow;
  token: string;
  rows: ImportRows;
  rate: number;
  concurrency: number;
}

/**
 * Runs imports in this process: one job per run, in the background, the token held in memory only
 * (never stored: a run interrupted by a restart is resumed by starting it again with the token).
 */
export class ImportLauncher {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly parts: {
      runs: ImportRunRepository;
      idMap: IdMapRepository;
      failures: FailureRepository;
      rpc: NatsRpcClient;
      policy: AddressPolicy;
      media: MediaCopierOptions | null;
      logger: Logger;
    },
  ) {}

  isRunning(importId: string): boolean {
    return this.running.has(importId);
  }

  launch(input: LaunchInput): void {
    const { run } = input;
    const ctx: RequestContext = { org_id: run.org_id, token_id: run.import_id, phone_scope: null, phone: null, member: null };
    const source = new SourceClient({
      baseUrl: run.source_url,
      token: input.token,
      policy: this.parts.policy,
      rate: input.rate,
      concurrency: input.concurrency,
    });
    const job = new ImportJob(
      {
        runs: this.parts.runs,
        idMap: this.parts.idMap,
        failures: this.parts.failures,
        owners: new Owners(this.parts.rpc, ctx),
        source,
        media: this.parts.media ? new MediaCopier(source, this.parts.media) : null,
        logger: this.parts.logger,
      },
      run,
      input.rows,
    );
    const done = job
      .execute(IMPORT_STEPS)
      .catch((error) => this.parts.logger.error({ import_id: run.import_id, err: (error as Error).message }, 'import job crashed'))
      .finally(() => this.running.delete(run.import_id));
    this.running.set(run.import_id, done);
  }

  /** Waits for every job under way (shutdown after the RPC server stopped taking new ones). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }
}
