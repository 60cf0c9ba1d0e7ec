import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { verifyPassword } from '@mapi/platform';
import { useTestDatabase } from '@mapi/testing';
import { runCli } from './cli';

describe('admin CLI', () => {
  // t.prisma is the checking client; each run opens its own client on t.db.
  const t = useTestDatabase('admin_cli', { poolSize: 1 });
  let opened: PrismaClient[] = [];

  afterEach(() => {
    opened = [];
  });

  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      openDatabase: () => {
        const prisma = createPrismaClient({ url: t.db.url, poolSize: 1 });
        opened.push(prisma);
        return prisma;
      },
      readStdin: () => Promise.reject(new Error('no command here reads stdin')),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const json = async (...argv: string[]) => {
    const result = await run(...argv, '--json');
    expect(result).toMatchObject({ code: 0, err: '' });
    return JSON.parse(result.out);
  };

  it('prints help without touching the database', async () => {
    const help = await run('help');
    expect(help.code).toBe(0);
    const commands = [
      'org:create',
      'org:list',
      'token:create',
      'token:revoke',
      'token:list',
      'phone:create',
      'kb:self-learned',
      'members:create-owner',
      'import:hosted',
      'import:cutover',
      'seed:demo',
    ];
    for (const command of commands) expect(help.out).toContain(command);
    expect(
      JSON.parse((await run('help', '--json')).out)
        .commands.map((c: { command: string }) => c.command)
        .sort(),
    ).toEqual([...commands].sort());
    expect(opened).toHaveLength(0);
  });

  it.each([
    [[], 'error: no command given (run "help" for the list)'],
    [['nope'], 'error: unknown command "nope" (run "help" for the list)'],
    [['token:create'], 'error: missing --org <organization id>'],
    [['org:create', '--name', 'X', '--rate-limit', 'fast'], 'error: --rate-limit must be a positive whole number, got "fast"'],
    [['org:list', '--org', 'x'], "error: Unknown option '--org' (usage: org:list)"],
    [['token:revoke', '--id'], "error: Option '--id <value>' argument missing (usage: token:revoke --id TOKEN_ID)"],
    [['org:list', 'extra'], "error: Unexpected argument 'extra' (usage: org:list)"],
  ])('exits 1 with one line for %j', async (argv, message) => {
    const result = await run(...argv);
    expect(result).toEqual({ code: 1, out: '', err: message });
  });

  it('runs the whole flow and prints a token only when it is created', async () => {
    const org = await json('org:create', '--name', 'CLI Org', '--plan', 'enterprise', '--rate-limit', '20');
    expect(org).toMatchObject({ name: 'CLI Org', plan: 'enterprise', plan_active: true, rate_limit_per_second: 20 });
    const phone = await json('phone:create', '--org', org.id, '--number', '14155550100', '--name', 'Desk');
    expect(phone).toMatchObject({ org_id: org.id, org_phone: '14155550100@c.us', phone_name: 'Desk' });

    const created = await run('token:create', '--org', org.id, '--name', 'ci', '--phones', phone.phone_id);
    expect(created.code).toBe(0);
    const token = /mapi_[A-Za-z0-9_-]+/.exec(created.out)?.[0] ?? '';
    expect(created.out).toContain(`Scope: phones ${phone.phone_id}`);
    const row = await t.prisma.apiToken.findFirstOrThrow({ where: { org_id: org.id } });
    expect(token.startsWith(row.token_prefix)).toBe(true);

    const listed = [await run('token:list', '--org', org.id), await run('token:list', '--org', org.id, '--json')];
    for (const output of listed) {
      expect(output.code).toBe(0);
      expect(output.out).not.toContain(token);
      expect(output.out).not.toContain(row.token_hash);
    }
    expect(JSON.parse(listed[1].out).tokens).toEqual([
      expect.objectContaining({ id: row.id, phone_scope: [phone.phone_id], revoked: false }),
    ]);

    expect((await run('token:revoke', '--id', row.id)).out).toMatch(/^Revoked token /);
    const again = await run('token:revoke', '--id', row.id);
    expect(again.out).toContain('was already revoked');
    expect(again.out).not.toContain(row.token_hash);

    const orgs = await json('org:list');
    expect(orgs.organizations).toEqual([expect.objectContaining({ id: org.id, phones: 1, active_tokens: 0 })]);
    expect(opened.length).toBeGreaterThan(0);
  });

  it('reports errors of the use cases in one line', async () => {
    const result = await run('phone:create', '--org', '00000000-0000-4000-8000-000000000000', '--number', '+1 415');
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err.split('\n')).toHaveLength(1);
    expect(result.err).toMatch(/^error: phone number "\+1 415" is not valid/);
  });

  it('seed:demo --json gives org, token, phones and chats for scripts', async () => {
    const seeded = await json('seed:demo');
    expect(seeded).toMatchObject({ org_id: expect.any(String), token: expect.stringMatching(/^mapi_/) });
    expect(seeded.phones).toHaveLength(2);
    expect(seeded.chats).toHaveLength(2);
    expect(seeded.console).toEqual({ email: 'owner@demo.example.com', password: expect.stringMatching(/^[A-Za-z0-9]{24}$/) });
    const human = await run('seed:demo');
    expect(human.out).toContain('already present');
    expect(human.out).toContain('Messages added by this run: 0');
    // The owner's sign-in, with this run's new password (the previous one no longer works).
    const password = /^ {2}password: ([A-Za-z0-9]{24})$/m.exec(human.out)?.[1];
    expect(human.out).toMatch(
      /^Console sign-in \(owner; a new password each run, shown only this once\):\n {2}email: {4}owner@demo\.example\.com$/m,
    );
    const owner = await t.prisma.member.findFirstOrThrow({ where: { org_id: seeded.org_id, role: 'owner' } });
    expect(await verifyPassword(owner.password_hash ?? '', password ?? '')).toBe(true);
    expect(await verifyPassword(owner.password_hash ?? '', seeded.console.password)).toBe(false);
  });
});
