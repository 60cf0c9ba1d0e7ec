import { ROUTES, registeredRpcs, type RpcContract } from '@mapi/contracts';
import { AUTOMATION_HANDLERS } from '@mapi/automation-feature';
import { CHATS_HANDLERS } from '@mapi/chats-feature';
import { GROUPS_HANDLERS } from '@mapi/groups-feature';
import { IMPORTER_HANDLERS } from '@mapi/importer-feature';
import { INBOX_HANDLERS } from '@mapi/inbox-feature';
import { KNOWLEDGE_BASE_HANDLERS } from '@mapi/knowledge-base-feature';
import { MEDIA_HANDLERS } from '@mapi/media-feature';
import { MEMBERS_HANDLERS } from '@mapi/members-feature';
import { CLOUD_API_HANDLERS, PHONES_HANDLERS, SANDBOX_HANDLERS } from '@mapi/phones-feature';
import { QUEUE_HANDLERS } from '@mapi/queue-feature';
import { WEBHOOKS_HANDLERS } from '@mapi/webhooks-feature';
import { ANALYTICS_HANDLERS } from '@mapi/analytics-feature';

/** Each service's handler tables (the phones service also answers the sandbox network's control API). */
const SERVICES: Record<string, readonly { contract: RpcContract }[]> = {
  automation: AUTOMATION_HANDLERS,
  chats: CHATS_HANDLERS,
  groups: GROUPS_HANDLERS,
  importer: IMPORTER_HANDLERS,
  inbox: INBOX_HANDLERS,
  'knowledge-base': KNOWLEDGE_BASE_HANDLERS,
  media: MEDIA_HANDLERS,
  members: MEMBERS_HANDLERS,
  phones: [...PHONES_HANDLERS, ...SANDBOX_HANDLERS, ...CLOUD_API_HANDLERS],
  queue: QUEUE_HANDLERS,
  webhooks: WEBHOOKS_HANDLERS,
  analytics: ANALYTICS_HANDLERS,
};

/** Which services answer each subject, from the tables. */
function servedBy(services: Record<string, readonly { contract: RpcContract }[]>): Map<string, string[]> {
  const served = new Map<string, string[]>();
  for (const [service, table] of Object.entries(services)) {
    for (const { contract } of table) served.set(contract.subject, [...(served.get(contract.subject) ?? []), service]);
  }
  return served;
}

/** Subjects of the registry with no service, or more than one. */
function coverageProblems(registry: readonly RpcContract[], services: Record<string, readonly { contract: RpcContract }[]>): string[] {
  const served = servedBy(services);
  return registry
    .map((c) => ({ subject: c.subject, by: served.get(c.subject) ?? [] }))
    .filter(({ by }) => by.length !== 1)
    .map(({ subject, by }) => `${subject}: served by ${by.length ? by.join(', ') : 'no service'}`);
}

describe('every contract of the registry is served by exactly one service', () => {
  const registry = registeredRpcs();

  it("the registry holds every route's RPC and the internal ones", () => {
    for (const route of ROUTES) expect(registry).toContain(route.rpc);
    expect(registry.map((c) => c.subject)).toContain('chats.v1.choose-phone');
  });

  it('each subject has one service, and every table line is a registered contract', () => {
    expect(coverageProblems(registry, SERVICES)).toEqual([]);
    const subjects = new Set(registry.map((c) => c.subject));
    const unknown = Object.values(SERVICES)
      .flatMap((t) => t.map((l) => l.contract.subject))
      .filter((s) => !subjects.has(s));
    expect(unknown).toEqual([]);
  });

  it('names a contract that lost its service, and one served twice (the check bites)', () => {
    const withoutChats = { ...SERVICES, chats: CHATS_HANDLERS.slice(1) };
    expect(coverageProblems(registry, withoutChats)).toEqual([`${CHATS_HANDLERS[0].contract.subject}: served by no service`]);
    const twice = { ...SERVICES, groups: [...GROUPS_HANDLERS, CHATS_HANDLERS[0]] };
    expect(coverageProblems(registry, twice)).toEqual([`${CHATS_HANDLERS[0].contract.subject}: served by chats, groups`]);
  });
});
