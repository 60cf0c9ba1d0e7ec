import { createPrismaClient } from '@mapi/db';
import { verifyPassword } from '@mapi/platform';
import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { runCli } from './cli';

/** members:create-owner through the CLI's entry point, against Postgres (stdin given per run). */
describe('admin CLI: members:create-owner', () => {
  const t = useTestDatabase('admin_cli_owner', { poolSize: 2 });
  const w: Record<string, any> = {};
  const PASSWORD = 'correct horse battery';

  async function run(argv: string[], stdin = '') {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      openDatabase: () => createPrismaClient({ url: t.db.url, poolSize: 1 }),
      readStdin: async () => stdin,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const owner = (org: string, ...more: string[]) => ['members:create-owner', '--org', org, ...more];
  const hashOf = (m: { password_hash: string | null }) => m.password_hash ?? '';
  const memberOf = (org: string, email: string) => t.prisma.member.findUniqueOrThrow({ where: { org_id_email: { org_id: org, email } } });
  /** Everything the members tables hold for an organization, to show what a command left alone. */
  const snapshot = async (org: string) => ({
    members: await t.prisma.member.findMany({ where: { org_id: org }, orderBy: { email: 'asc' } }),
    sessions: await t.prisma.memberSession.findMany({ where: { org_id: org }, orderBy: { session_id: 'asc' } }),
    audit: await t.prisma.memberAuditEntry.findMany({ where: { org_id: org }, orderBy: { audit_id: 'asc' } }),
  });
  const session = (org: string, member: string) =>
    t.prisma.memberSession.create({
      data: {
        session_id: newUuid(),
        org_id: org,
        member_id: member,
        token_hash: newUuid(),
        csrf_hash: 'x',
        expires_at: new Date(Date.now() + 3_600_000),
      },
    });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    // Another organization with an owner, a member and a live session: nothing below may change it.
    expect((await run(owner(w.other, '--email', 'boss@example.com'))).code).toBe(0);
    w.otherOwner = await memberOf(w.other, 'boss@example.com');
    await t.prisma.member.create({ data: { member_id: newUuid(), org_id: w.other, email: 'ann@example.com', role: 'admin' } });
    await session(w.other, w.otherOwner.member_id);
    w.otherBefore = await snapshot(w.other);
    w.invited = await t.prisma.member.create({
      data: { member_id: newUuid(), org_id: w.org, email: 'invitee@example.com', role: 'admin', invited_at: new Date() },
    });
  });

  it('creates the owner from --password-stdin: argon2id hash, active, audited as the operator, password never printed', async () => {
    const res = await run(owner(w.org, '--email', ' Owner@Example.COM ', '--name', 'Olive', '--password-stdin'), `${PASSWORD}\n`);
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toMatch(/^Created owner owner@example\.com \(member [0-9a-f-]{36}\) of organization /);
    expect(res.out).toContain('Password: the one given (not shown).');
    expect(res.out).not.toContain(PASSWORD);
    const row = await memberOf(w.org, 'owner@example.com');
    expect(row).toMatchObject({ role: 'owner', member_name: 'Olive', phones_limited: false, labels_limited: false, invited_by: null });
    expect(row.joined_at).toBeInstanceOf(Date);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hashOf(row), PASSWORD)).toBe(true);
    expect(await verifyPassword(hashOf(row), `${PASSWORD}\n`)).toBe(false);
    expect(await t.prisma.memberAuditEntry.findMany({ where: { org_id: w.org } })).toEqual([
      expect.objectContaining({
        actor_type: 'operator',
        actor_id: null,
        actor_email: null,
        action: 'member.owner_created',
        target: 'owner@example.com',
        details: { by: 'members:create-owner', role: 'owner' },
      }),
    ]);
    w.owner = row;
  });

  it.each([
    [
      'a second owner',
      ['--email', 'second@example.com', '--password', PASSWORD],
      /^error: organization [0-9a-f-]{36} already has an owner \(owner@example\.com\); an organization has one owner$/,
    ],
    ['a second owner, even with --reset', ['--email', 'second@example.com', '--reset'], /already has an owner \(owner@example\.com\)/],
    [
      'the owner again without --reset',
      ['--email', 'owner@example.com'],
      /^error: owner@example\.com already is the owner of organization [0-9a-f-]{36}; --reset sets a new password$/,
    ],
    [
      'an invalid email',
      ['--email', 'not-an-email', '--password', PASSWORD],
      /^error: email "not-an-email" is not valid: must be an email address$/,
    ],
    ['a short password', ['--email', 'x@example.com', '--password', 'short-pw1'], /^error: password must be at least 10 characters$/],
    [
      'a password over 1024 characters',
      ['--email', 'x@example.com', '--password', 'p'.repeat(1025)],
      /^error: password is at most 1024 characters$/,
    ],
    ['an empty stdin', ['--email', 'x@example.com', '--password-stdin'], /^error: password must be at least 10 characters$/],
    [
      'both password options',
      ['--email', 'x@example.com', '--password', PASSWORD, '--password-stdin'],
      /^error: give --password or --password-stdin, not both$/,
    ],
    ['an empty name', ['--email', 'x@example.com', '--name', '  '], /^error: name must not be empty$/],
    ['a name over 100 characters', ['--email', 'x@example.com', '--name', 'n'.repeat(101)], /^error: name must be at most 100 characters$/],
    ['no --email', [], /^error: missing --email <email address>$/],
  ])('refuses %s and changes nothing', async (_what, args, message) => {
    const before = await snapshot(w.org);
    const res = await run(owner(w.org, ...args));
    expect(res).toMatchObject({ code: 1, out: '' });
    expect(res.err).toMatch(message);
    expect(res.err.split('\n')).toHaveLength(1);
    expect(res.err).not.toContain(PASSWORD);
    expect(res.err).not.toContain('short-pw1');
    expect(await snapshot(w.org)).toEqual(before);
  });

  it('refuses an address that already is a member (invited or active) of an organization without owner', async () => {
    const org = (await createOrg(t.prisma)).id;
    await t.prisma.member.create({
      data: { member_id: newUuid(), org_id: org, email: 'inv@example.com', role: 'admin', invited_at: new Date() },
    });
    await t.prisma.member.create({
      data: { member_id: newUuid(), org_id: org, email: 'act@example.com', role: 'member', password_hash: 'x' },
    });
    const before = await snapshot(org);
    expect(await run(owner(org, '--email', 'INV@example.com', '--password', PASSWORD))).toEqual({
      code: 1,
      out: '',
      err: `error: inv@example.com already is a member of organization ${org} (role admin, invited); the owner needs an address that is not a member yet`,
    });
    expect((await run(owner(org, '--email', 'act@example.com'))).err).toContain('(role member, active)');
    expect(await snapshot(org)).toEqual(before);
  });

  it.each([
    [['members:create-owner', '--email', 'x@example.com'], 'error: missing --org <organization id>'],
    [owner('nope', '--email', 'x@example.com'), 'error: organization id "nope" is not a valid id (expected a UUID)'],
    [
      owner('00000000-0000-4000-8000-000000000000', '--email', 'x@example.com'),
      'error: organization 00000000-0000-4000-8000-000000000000 not found',
    ],
    [
      owner('00000000-0000-4000-8000-000000000000', '--email', 'x@example.com', '--role', 'admin'),
      "error: Unknown option '--role' (usage: members:create-owner --org ID --email EMAIL [--password P | --password-stdin] [--name NAME] [--reset])",
    ],
  ])('refuses %j without writing a member', async (argv, message) => {
    const count = await t.prisma.member.count();
    expect(await run(argv)).toEqual({ code: 1, out: '', err: message });
    expect(await t.prisma.member.count()).toBe(count);
  });

  it("--reset sets a generated password once, ends only that owner's sessions, and is audited", async () => {
    const mine = await session(w.org, w.owner.member_id);
    const invitee = await session(w.org, w.invited.member_id);
    const res = await run([...owner(w.org, '--email', 'owner@example.com', '--reset'), '--json']);
    expect(res).toMatchObject({ code: 0, err: '' });
    const json = JSON.parse(res.out);
    expect(json).toEqual({
      org_id: w.org,
      member_id: w.owner.member_id,
      email: 'owner@example.com',
      member_name: 'Olive',
      role: 'owner',
      created: false,
      password_reset: true,
      sessions_ended: 1,
      password_generated: true,
      password: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
    });
    const row = await memberOf(w.org, 'owner@example.com');
    expect(await verifyPassword(hashOf(row), json.password)).toBe(true);
    expect(await verifyPassword(hashOf(row), PASSWORD)).toBe(false);
    expect(row.joined_at).toEqual(w.owner.joined_at);
    expect((await t.prisma.memberSession.findUniqueOrThrow({ where: { session_id: mine.session_id } })).revoked_at).toBeInstanceOf(Date);
    expect((await t.prisma.memberSession.findUniqueOrThrow({ where: { session_id: invitee.session_id } })).revoked_at).toBeNull();
    const last = await t.prisma.memberAuditEntry.findFirstOrThrow({ where: { org_id: w.org }, orderBy: { created_at: 'desc' } });
    expect(last).toMatchObject({
      actor_type: 'operator',
      action: 'member.password_reset',
      target: 'owner@example.com',
      details: { by: 'members:create-owner', sessions_ended: 1 },
    });
    expect(JSON.stringify(last)).not.toContain(json.password);

    // The human form prints a generated password exactly once; a given one never.
    const human = await run(owner(w.org, '--email', 'owner@example.com', '--reset'));
    const generated = /^ {2}([A-Za-z0-9]{24})$/m.exec(human.out)?.[1] ?? '';
    expect(human.out.split(generated)).toHaveLength(2);
    expect(human.out).toMatch(
      /^Set a new password for owner owner@example\.com .*console sessions ended: 0\nPassword \(generated; shown only this once, store it now\):/,
    );
    expect(await verifyPassword(hashOf(await memberOf(w.org, 'owner@example.com')), generated)).toBe(true);
    const given = JSON.parse(
      (await run([...owner(w.org, '--email', 'owner@example.com', '--reset', '--password', PASSWORD), '--json'])).out,
    );
    expect(given).toMatchObject({ password_generated: false, password_reset: true });
    expect(given).not.toHaveProperty('password');
  });

  it('generates a password when none is given and prints it in --json', async () => {
    const org = (await createOrg(t.prisma)).id;
    const res = JSON.parse((await run([...owner(org, '--email', 'gen@example.com'), '--json'])).out);
    expect(res).toMatchObject({ created: true, password_reset: false, password_generated: true, sessions_ended: 0, member_name: null });
    expect(await verifyPassword(hashOf(await memberOf(org, 'gen@example.com')), res.password)).toBe(true);
  });

  it('makes one owner when two runs race for an organization', async () => {
    const org = (await createOrg(t.prisma)).id;
    const results = await Promise.all(
      ['a@example.com', 'b@example.com'].map((email) => run(owner(org, '--email', email, '--password', PASSWORD))),
    );
    expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(results.find((r) => r.code === 1)?.err).toMatch(/already has an owner/);
    expect(await t.prisma.member.count({ where: { org_id: org } })).toBe(1);
  });

  it('left the other organization exactly as it was', async () => {
    expect(await snapshot(w.other)).toEqual(w.otherBefore);
    expect(w.otherBefore.members).toHaveLength(2);
    expect(w.otherBefore.sessions[0].revoked_at).toBeNull();
  });
});
