import { AdminError } from '@mapi/admin-feature';
import { optional, required, str, type Command } from './args';
import { prefix, table, when } from './format';
import { cutoverCommand, importCommand } from './import-command';
import { ownerCommand } from './owner-command';

export type { Command, CommandIo, Output, Values } from './args';

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value.trim())) throw new AdminError(`--${name} must be a positive whole number, got "${value}"`);
  return Number(value.trim());
}

const baseUrl = () => `${(process.env.PUBLIC_BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '')}/v1`;

export const COMMANDS: Record<string, Command> = {
  'org:create': {
    usage: 'org:create --name NAME [--plan free|pro|enterprise] [--rate-limit N]',
    summary: 'create an organization (plan default pro, active)',
    options: { name: str, plan: str, 'rate-limit': str },
    async run(values, admin) {
      const org = await admin.createOrganization.execute({
        name: required(values, 'name', '<organization name>'),
        plan: optional(values, 'plan'),
        rateLimitPerSecond: positiveInt(optional(values, 'rate-limit'), 'rate-limit'),
      });
      const rate = org.rate_limit_per_second === null ? 'default' : `${org.rate_limit_per_second}/s`;
      return {
        json: org,
        text: `Created organization "${org.name}" (plan ${org.plan}, active, rate limit ${rate})\n  id: ${org.id}`,
      };
    },
  },
  'org:list': {
    usage: 'org:list',
    summary: 'list organizations with their phone and active token counts',
    options: {},
    async run(_values, admin) {
      const orgs = await admin.listOrganizations.execute();
      const text = orgs.length
        ? table(
            ['ID', 'NAME', 'PLAN', 'ACTIVE', 'RATE LIMIT', 'PHONES', 'TOKENS', 'CREATED'],
            orgs.map((o) => [
              o.id,
              o.name,
              o.plan,
              o.plan_active ? 'yes' : 'no',
              o.rate_limit_per_second === null ? 'default' : `${o.rate_limit_per_second}/s`,
              String(o.phones),
              String(o.active_tokens),
              when(o.created_at),
            ]),
          )
        : 'No organizations yet. Create one with: org:create --name NAME';
      return { json: { organizations: orgs }, text };
    },
  },
  'token:create': {
    usage: 'token:create --org ID [--name NAME] [--phones phone-a,phone-b]',
    summary: 'create an API token (printed once); --phones limits it to those phones',
    options: { org: str, name: str, phones: str },
    async run(values, admin) {
      const phones = optional(values, 'phones');
      const t = await admin.createToken.execute({
        orgId: required(values, 'org', '<organization id>'),
        name: optional(values, 'name'),
        phoneIds: phones === undefined ? undefined : phones.split(','),
      });
      const scope = t.phone_scoped ? `phones ${t.phone_ids.join(', ')}` : 'every phone of the organization';
      return {
        json: t,
        text: [
          `Created token "${t.name}" (id ${t.id}) for organization ${t.org_id}`,
          `Scope: ${scope}`,
          'Token (shown only this once; store it now):',
          '',
          `  ${t.token}`,
        ].join('\n'),
      };
    },
  },
  'token:revoke': {
    usage: 'token:revoke --id TOKEN_ID',
    summary: 'revoke a token (again: says it already was)',
    options: { id: str },
    async run(values, admin) {
      const r = await admin.revokeToken.execute({ tokenId: required(values, 'id', '<token id>') });
      const text = r.already_revoked
        ? `Token ${r.id} ("${r.name}", ${prefix(r.prefix)}) was already revoked at ${when(r.revoked_at)}; nothing changed`
        : `Revoked token ${r.id} ("${r.name}", ${prefix(r.prefix)}) at ${when(r.revoked_at)}`;
      return { json: r, text };
    },
  },
  'token:list': {
    usage: 'token:list --org ID',
    summary: "list an organization's tokens (prefix only, never the token)",
    options: { org: str },
    async run(values, admin) {
      const tokens = await admin.listTokens.execute({ orgId: required(values, 'org', '<organization id>') });
      const text = tokens.length
        ? table(
            ['ID', 'NAME', 'PREFIX', 'SCOPE', 'STATUS', 'LAST USED', 'CREATED'],
            tokens.map((t) => [
              t.id,
              t.name,
              prefix(t.prefix),
              t.phone_scope ? t.phone_scope.join(',') : 'all phones',
              t.revoked ? `revoked ${when(t.revoked_at)}` : 'active',
              when(t.last_used_at),
              when(t.created_at),
            ]),
          )
        : 'No tokens. Create one with: token:create --org ID';
      return { json: { tokens }, text };
    },
  },
  'phone:create': {
    usage: 'phone:create --org ID --number DIGITS [--name NAME]',
    summary: 'register a phone (country code + number, digits only)',
    options: { org: str, number: str, name: str },
    async run(values, admin) {
      const p = await admin.createPhone.execute({
        orgId: required(values, 'org', '<organization id>'),
        digits: required(values, 'number', '<digits: country code + number>'),
        name: optional(values, 'name'),
      });
      const name = p.phone_name ? `, "${p.phone_name}"` : '';
      return { json: p, text: `Created phone ${p.phone_id} (${p.org_phone}${name}) in organization ${p.org_id}; state ${p.wa_state}` };
    },
  },
  'kb:self-learned': {
    usage: 'kb:self-learned --org ID --question TEXT --answer TEXT [--active]',
    summary: 'add a self-learned knowledge-base entry, as the AI agent would (inactive unless --active)',
    options: { org: str, question: str, answer: str, active: { type: 'boolean' } },
    async run(values, admin) {
      const e = await admin.seedSelfLearned.execute({
        orgId: required(values, 'org', '<organization id>'),
        question: required(values, 'question', '<text>'),
        answer: required(values, 'answer', '<text>'),
        active: values.active === true,
      });
      return {
        json: e,
        text: `Added self-learned entry ${e.context_id} (${e.is_active ? 'active' : 'inactive, awaiting approval'}) to organization ${e.org_id}`,
      };
    },
  },
  'members:create-owner': ownerCommand,
  'import:hosted': importCommand,
  'import:cutover': cutoverCommand,
  'seed:demo': {
    usage: 'seed:demo',
    summary:
      'seed "Demo Org" with phones, chats and messages (idempotent); print a new demo token and the owner\'s console sign-in (new password each run)',
    options: {},
    async run(_values, admin) {
      const s = await admin.seedDemo.execute();
      const chat = s.chats[0];
      const text = [
        `Demo organization "${s.org_name}" ${s.org_created ? 'created' : 'already present'}: ${s.org_id}`,
        'Phones:',
        table(
          ['  PHONE_ID', 'NUMBER', 'NAME'],
          s.phones.map((p) => [`  ${p.phone_id}`, p.org_phone, p.phone_name ?? '-']),
        ),
        'Chats:',
        table(
          ['  PHONE_ID', 'CHAT_ID', 'NAME', 'TYPE', 'MESSAGES'],
          s.chats.map((c) => [`  ${c.phone_id}`, c.chat_id, c.chat_name, c.chat_type, String(c.messages)]),
        ),
        `Messages added by this run: ${s.messages_inserted}`,
        'Demo token (shown only this once; store it now):',
        '',
        `  ${s.token}`,
        '',
        `Try: curl -H "Authorization: Bearer ${s.token}" "${baseUrl()}/chats/${chat.chat_id}/messages"`,
        '',
        ...(s.console
          ? [
              'Console sign-in (owner; a new password each run, shown only this once):',
              `  email:    ${s.console.email}`,
              `  password: ${s.console.password}`,
            ]
          : ['Console sign-in: the demo organization has an owner set up by an operator; its password is unchanged.']),
      ].join('\n');
      return { json: s, text };
    },
  },
};

export function helpText(): string {
  return [
    'mapi admin: organizations, API tokens and phones of a self-hosted deployment',
    '',
    'Usage: node apps/admin-cli/dist/main.js <command> [options] [--json]',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`),
    '  help\n      this text',
    '',
    '--json prints one JSON object instead of text. DATABASE_URL selects the database',
    '(default postgresql://postgres@127.0.0.1:5432/mapi).',
  ].join('\n');
}
