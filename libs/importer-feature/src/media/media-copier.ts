import { MEDIA_PATH, assertObjectKey, mediaLink, type ObjectKey, type ObjectStorage } from '@mapi/storage';
import type { ImportItemResult } from '@mapi/contracts';
import type { FailureRepository } from '../repositories/failure-repository';
import type { Report } from '../run/report';
import { FileFetchError, type SourceClient } from '../source/source-client';
import { SourceError } from '../source/source-error';

type Row = Record<string, unknown>;

export interface MediaCopierOptions {
  /** Our media storage (the one the media app serves and the phones store received files in). */
  storage: ObjectStorage;
  /** Our {media_base_url}: copied files are linked as `<this>/app/media/<bucket>/<our org>/...`. */
  mediaBaseUrl: string;
  /** The largest file copied; a larger one fails (reported) and keeps the source's link. */
  maxBytes: number;
}

/** A message whose media the run may copy, with where its file is now and where it goes here. */
interface Candidate {
  message: Row;
  media: Row;
  /** The file's link at the source, without a token. */
  link: string;
  /** Where the file lives at the source, when the link is a media-app link. */
  from: ObjectKey | null;
}

/** The source's batch answer (spec 4.9). */
interface BatchAnswer {
  results?: { index: number; success: boolean; url?: string; error?: string }[];
}

const BATCH = 1000;
const LINK_SECONDS = 3600;

/** `<bucket>/<name>` of a media-app link (`…/app/media/<bucket>/<org>/<file…>`, any host), else null. */
export function keyOfLink(link: string): ObjectKey | null {
  let path: string;
  try {
    path = new URL(link).pathname;
  } catch {
    return null;
  }
  const at = path.indexOf(MEDIA_PATH);
  if (at < 0) return null;
  try {
    const segments = path
      .slice(at + MEDIA_PATH.length)
      .split('/')
      .map(decodeURIComponent);
    return assertObjectKey({ bucket: segments[0], name: segments.slice(1).join('/') });
  } catch {
    return null;
  }
}

/** The same file's key here: the first segment of a name is its organization. */
export const keyHere = (from: ObjectKey, orgId: string): ObjectKey =>
  assertObjectKey({ bucket: from.bucket, name: `${orgId}/${from.name.split('/').slice(1).join('/')}` });

/** What copying reads and writes of the run it copies for: an ImportJob, named here so this file need not import it. */
export interface MediaCopyJob {
  readonly orgId: string;
  readonly dryRun: boolean;
  readonly options: { concurrency: number };
  readonly report: Pick<Report, 'read' | 'add'>;
  readonly run: { import_id: string };
  readonly parts: { failures: Pick<FailureRepository, 'record'> };
}

/**
 * Brings the files of imported messages into our storage, so their links keep working after the
 * source is switched off: for each message whose `media.path` is a file of the source, the source is
 * asked for a fresh link (spec 4.9, one call per 1,000 files), the bytes are read from it and stored
 * under our organization, and `media.path` becomes our link (which POST /media/migrate-url turns into
 * a tokenized one, as for any file here). A file stored already (a rerun, a resumed page) is not read
 * again. A file the source refuses, or one too large, fails on its own (reported under `media`,
 * the message keeps the source's link); the message is written in any case.
 */
export class MediaCopier {
  constructor(
    private readonly source: SourceClient,
    private readonly options: MediaCopierOptions,
  ) {}

  /** Rewrites `media.path` of the page's messages in place (a dry run only counts). */
  async copy(job: MediaCopyJob, messages: Row[]): Promise<void> {
    const candidates = this.candidatesOf(messages);
    if (!candidates.length) return;
    job.report.read('media', candidates.length);
    const results: ImportItemResult[] = [];
    const pending: Candidate[] = [];
    const ours = `${this.options.mediaBaseUrl}${MEDIA_PATH}`;
    for (const c of candidates) {
      const here = c.from ? keyHere(c.from, job.orgId) : null;
      if (here && c.link.startsWith(ours) && c.from?.name === here.name) results.push(this.result(c, 'skipped'));
      else if (here && (await this.options.storage.stat(here))) {
        this.relink(c, here);
        results.push(this.result(c, 'skipped'));
      } else pending.push(c);
    }
    if (job.dryRun) results.push(...pending.map((c) => this.result(c, 'created')));
    else results.push(...(await this.fetchAll(job, pending)));
    job.report.add('media', results);
    const failures = results
      .filter((r) => r.outcome === 'failed')
      .map((r) => ({ resource: 'media', source_id: r.source_id, reason: r.reason ?? 'refused' }));
    if (!job.dryRun && failures.length) await job.parts.failures.record(job.orgId, job.run.import_id, failures);
  }

  private candidatesOf(messages: Row[]): Candidate[] {
    const out: Candidate[] = [];
    for (const message of messages) {
      const media = message.media as Row | null | undefined;
      // Only links: a bare storage path (no scheme) names no file the source could hand out.
      if (!media || typeof media !== 'object' || typeof media.path !== 'string' || !/^https?:\/\//i.test(media.path)) continue;
      const link = media.path.split('?')[0];
      out.push({ message, media, link, from: keyOfLink(link) });
    }
    return out;
  }

  /** Fresh links from the source, then each file read and stored, `concurrency` at a time. */
  private async fetchAll(job: MediaCopyJob, pending: Candidate[]): Promise<ImportItemResult[]> {
    const links = await this.freshLinks(pending);
    const results: ImportItemResult[] = [];
    let next = 0;
    const lanes = Math.max(1, Math.min(job.options.concurrency, pending.length));
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < pending.length) {
          const i = next++;
          results.push(await this.fetchOne(job, pending[i], links[i]));
        }
      }),
    );
    return results;
  }

  /**
   * A link per file to read it by: the source's refreshed one (tokenized), its reason when it refused
   * the file, or the stored link itself when the source has no batch route (404: a public link, maybe).
   */
  private async freshLinks(pending: Candidate[]): Promise<({ url: string } | { error: string })[]> {
    const out: ({ url: string } | { error: string })[] = [];
    for (let i = 0; i < pending.length; i += BATCH) {
      const part = pending.slice(i, i + BATCH);
      const answer = await this.source.post<BatchAnswer>('/media/migrate-url/batch', {
        urls: part.map((c) => c.link),
        access: 'private',
        expires_in_seconds: LINK_SECONDS,
      });
      part.forEach((c, j) => {
        const r = answer?.results?.find((x) => x.index === j);
        if (!answer) out.push({ url: c.link });
        else if (r?.success && typeof r.url === 'string') out.push({ url: r.url });
        else out.push({ error: `the source would not hand out a link to the file: ${r?.error ?? 'no answer for it'}` });
      });
    }
    return out;
  }

  private async fetchOne(job: MediaCopyJob, c: Candidate, link: { url: string } | { error: string }): Promise<ImportItemResult> {
    if ('error' in link) return this.result(c, 'failed', link.error);
    const from = c.from ?? keyOfLink(link.url);
    if (!from) return this.result(c, 'skipped'); // not a file of the source's media app (an outside link): kept as it is
    try {
      const here = keyHere(from, job.orgId);
      const file = await this.source.download(link.url, this.options.maxBytes);
      const contentType = typeof c.media.mimetype === 'string' && c.media.mimetype ? c.media.mimetype : file.contentType;
      await this.options.storage.write(here, file.body, { contentType });
      this.relink(c, here);
      return this.result(c, 'created');
    } catch (error) {
      if (error instanceof FileFetchError) return this.result(c, 'failed', error.message);
      if (error instanceof SourceError && error.code === 'SOURCE_ADDRESS_BLOCKED') return this.result(c, 'failed', error.message);
      throw error; // the source unavailable after its retries: the run stops, a rerun resumes at this page
    }
  }

  private relink(c: Candidate, here: ObjectKey): void {
    c.message.media = { ...c.media, path: mediaLink(this.options.mediaBaseUrl, here) };
  }

  private result(c: Candidate, outcome: ImportItemResult['outcome'], reason?: string): ImportItemResult {
    return { source_id: String(c.message.message_id), target_id: null, outcome, ...(reason ? { reason } : {}) };
  }
}
