import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createOrg } from '@mapi/testing';
import { anonymous, sessionOf } from './support/console-session';
import { client, expectEnvelope } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * The console's first sign-in, end to end: the built admin CLI (as `npm run up` and an operator run
 * it) writes the owner, and the gateway + members service sign that owner in over HTTP.
 */
describe("console owner: the admin CLI's owner signs in through POST /v1/auth/sign-in", () => {
  let stack: Stack;
  const w: Record<string, any> = {};

  /** `node apps/admin-cli/dist/main.js …` against the stack's database, stdin as given. */
  function admin(args: string[], stdin = ''): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(__dirname, '..', '..', 'apps', 'admin-cli', 'dist', 'main.js'), ...args], {
        env: { ...process.env, DATABASE_URL: stack.env.DATABASE_URL },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, out, err }));
      child.stdin.end(stdin);
    });
  }
  const signIn = (email: string, password: string) => anonymous(stack.baseUrl, 'POST', '/auth/sign-in', { email, password });

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones', 'members'] });
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it("seed:demo --json prints console credentials that sign in as the demo organization's owner", async () => {
    const res = await admin(['seed:demo', '--json']);
    expect(res).toMatchObject({ code: 0, err: '' });
    w.seed = JSON.parse(res.out);
    expect(w.seed.console).toEqual({ email: 'owner@demo.example.com', password: expect.stringMatching(/^[A-Za-z0-9]{24}$/) });

    const answer = await signIn(w.seed.console.email, w.seed.console.password);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      org_id: w.seed.org_id,
      member: { email: 'owner@demo.example.com', role: 'admin', is_owner: true, is_active: true },
    });
    w.owner = sessionOf(stack.baseUrl, answer);
    const me = await w.owner.call('GET', '/auth/me');
    expect(me.body).toMatchObject({ org_id: w.seed.org_id, role: 'owner', phone_ids: null });
    // An owner reaches every phone's chats and may invite.
    expect((await w.owner.call('GET', '/chats')).body.chats).toHaveLength(2);
    expect((await w.owner.call('POST', '/members/invite', { emails: ['new@example.com'] })).status).toBe(200);
  });

  it('a second seed:demo run gives a new password: the old one and its session stop working', async () => {
    const again = JSON.parse((await admin(['seed:demo', '--json'])).out);
    expect(again.console.password).not.toBe(w.seed.console.password);
    const old = await signIn(w.seed.console.email, w.seed.console.password);
    expect(old.status).toBe(401);
    expectEnvelope(old.body, 'UNAUTHORIZED_ERROR', 401);
    expect((await w.owner.call('GET', '/auth/me')).status).toBe(401);
    expect((await signIn(again.console.email, again.console.password)).status).toBe(200);

    const trail = await client(stack.baseUrl, again.token).get('/members/audit');
    expect(trail.body.entries.map((e: any) => `${e.action} ${e.target} ${e.actor_type}`)).toEqual(
      expect.arrayContaining([
        'member.owner_created owner@demo.example.com operator',
        'member.password_reset owner@demo.example.com operator',
      ]),
    );
  });

  it('members:create-owner --password-stdin makes an owner of another organization who signs in there only', async () => {
    const org = await createOrg(stack.prisma);
    const res = await admin(
      ['members:create-owner', '--org', org.id, '--email', 'Founder@Example.com', '--password-stdin', '--json'],
      'a long enough secret\n',
    );
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(res.out)).toMatchObject({ org_id: org.id, email: 'founder@example.com', created: true, password_generated: false });
    expect(res.out).not.toContain('a long enough secret');
    const answer = await signIn('founder@example.com', 'a long enough secret');
    expect(answer.status).toBe(200);
    expect(answer.body.org_id).toBe(org.id);
    const members = await sessionOf(stack.baseUrl, answer).call('GET', '/members');
    expect(members.body.map((m: any) => m.email)).toEqual(['founder@example.com']);

    const second = await admin(['members:create-owner', '--org', org.id, '--email', 'other@example.com']);
    expect(second).toEqual({
      code: 1,
      out: '',
      err: `error: organization ${org.id} already has an owner (founder@example.com); an organization has one owner\n`,
    });
    expect((await signIn('other@example.com', 'a long enough secret')).status).toBe(401);
  });
});
