import { SourceError } from '../../source/source-error';
import type { ImportJob, Step } from '../import-job';
import { readArray } from '../pages';

interface SourcePhone {
  phone_id: string;
  org_id?: string;
  org_phone: string | null;
  [key: string]: unknown;
}

const digits = (v: string) => v.replace(/@c\.us$/, '').replace(/\D/g, '');

/** Whether the run brings this source phone (`--phones`: phone_ids or numbers). */
export function phoneWanted(job: ImportJob, phone: { phone_id: string; org_phone: string | null }): boolean {
  const wanted = job.options.phones;
  if (!wanted) return true;
  return wanted.some((w) => w === phone.phone_id || (phone.org_phone !== null && digits(w) === digits(phone.org_phone)));
}

/**
 * Reads GET /phones/all first: it proves the source is the API (a list of phones of one organization)
 * and names the source organization, which keys the id map. Phones come over as phones to reconnect
 * by QR, with their names; ours are found again by number on later runs.
 */
export const phonesStep: Step = {
  name: 'phones',
  run: async (job) => {
    const phones = await readSourcePhones(job);
    const wanted = phones.filter((p) => phoneWanted(job, p));
    job.report.read('phones', wanted.length);
    const results = await job.apply(
      'phones',
      wanted.map((p) => ({ ...p, source_id: p.phone_id })),
    );
    // A dry run makes no phones: its messages are counted under the source's phone ids.
    results.forEach((r, i) => (r.target_id || job.dryRun) && rememberPhone(job, wanted[i], r.target_id ?? wanted[i].phone_id));
  },
};

/** The source's phones; also sets the job's source organization (before any id map is read). */
export async function readSourcePhones(job: ImportJob): Promise<SourcePhone[]> {
  const phones = await readArray<SourcePhone>(job.parts.source, '/phones/all');
  if (phones === null)
    throw new SourceError('SOURCE_NOT_HOSTED_API', "GET /phones/all is not there (404): --from must be the API's base URL, ending in /v1");
  if (phones.some((p) => typeof p?.phone_id !== 'string'))
    throw new SourceError('SOURCE_NOT_HOSTED_API', 'GET /phones/all did not answer phones: is --from the hosted API?');
  const org = phones.find((p) => typeof p.org_id === 'string')?.org_id ?? null;
  if (org) job.sourceOrg = org;
  return phones;
}

export function rememberPhone(job: ImportJob, phone: SourcePhone, targetId: string): void {
  job.phones.set(phone.phone_id, targetId);
  if (phone.org_phone) {
    job.phones.set(phone.org_phone, targetId);
    job.phones.set(digits(phone.org_phone), targetId);
  }
}

/** Our phone for a source phone number or id (the numbers as messages and chats carry them). */
export function targetPhone(job: ImportJob, orgPhoneOrId: string | null | undefined): string | undefined {
  if (!orgPhoneOrId) return undefined;
  return job.phones.get(orgPhoneOrId) ?? job.phones.get(digits(orgPhoneOrId));
}

/** After a resume the phones step is done: its ids are found again from the map. */
export async function loadPhones(job: ImportJob): Promise<void> {
  if (job.phones.size) return;
  const phones = await readSourcePhones(job);
  const map = await job.idMapOf('phones');
  for (const p of phones) {
    const target = map.get(p.phone_id) ?? (job.dryRun ? p.phone_id : undefined);
    if (target) rememberPhone(job, p, target);
  }
}
