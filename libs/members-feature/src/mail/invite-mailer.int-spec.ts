import type { AddressInfo } from 'node:net';
import { createLogger } from '@mapi/platform';
import { SMTPServer } from 'smtp-server';
import { loadMembersConfig } from '../config';
import { SmtpInviteMailer } from './invite-mailer';

/** The SMTP mailer against a real SMTP server in this process (smtp-server), with authentication. */
describe('SmtpInviteMailer', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _session, cb) =>
        auth.username === 'mailer' && auth.password === 's3cret' ? cb(null, { user: 'mailer' }) : cb(new Error('bad credentials')),
      onData: (stream, session, cb) => {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
        stream.on('end', () => {
          // the text part is quoted-printable: soft line breaks and =3D decoded
          const text = data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data: text,
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const mailer = (password: string) =>
    new SmtpInviteMailer(
      loadMembersConfig({
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(port),
        SMTP_USER: 'mailer',
        SMTP_PASSWORD: password,
        SMTP_FROM: 'Console <console@example.com>',
      }),
      createLogger('members-test', 'silent'),
    );

  it('sends the invitation with its link to the invitee, from SMTP_FROM, authenticated', async () => {
    const m = mailer('s3cret');
    const expiresAt = new Date(Date.now() + 3600_000);
    expect(
      await m.send({
        to: 'amy@example.com',
        url: 'https://console.example/accept-invite#token=abc',
        inviter: 'bob@example.com',
        expiresAt,
      }),
    ).toBe(true);
    m.close();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'console@example.com', to: ['amy@example.com'] });
    expect(received[0].data).toContain('https://console.example/accept-invite#token=abc');
    expect(received[0].data).toContain('bob@example.com invited you');
  });

  it('reports a refused send as not sent (the link then goes back to the inviter)', async () => {
    const m = mailer('wrong');
    expect(await m.send({ to: 'amy@example.com', url: 'https://x/accept-invite#token=1', inviter: null, expiresAt: new Date() })).toBe(
      false,
    );
    m.close();
    expect(received).toHaveLength(1);
  });

  it('needs SMTP_FROM with SMTP_HOST, and a password with a user', () => {
    expect(() => loadMembersConfig({ SMTP_HOST: 'mail.example.com' })).toThrow(/SMTP_FROM/);
    expect(() => loadMembersConfig({ SMTP_HOST: 'mail.example.com', SMTP_FROM: 'a@b.c', SMTP_USER: 'u' })).toThrow(/SMTP_PASSWORD/);
    expect(loadMembersConfig({}).SMTP_HOST).toBeUndefined();
  });
});
