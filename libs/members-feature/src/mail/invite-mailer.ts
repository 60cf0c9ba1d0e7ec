import type { Logger } from '@mapi/platform';
import { createTransport, type Transporter } from 'nodemailer';
import type { MembersConfig } from '../config';

export interface InviteMail {
  to: string;
  url: string;
  inviter: string | null;
  expiresAt: Date;
}

/** Sends invitation mails; `false` when there is no mail server (the link then goes back to the inviter). */
export interface InviteMailer {
  readonly configured: boolean;
  send(mail: InviteMail): Promise<boolean>;
}

export const NO_MAILER: InviteMailer = { configured: false, send: async () => false };

export function inviteText(mail: InviteMail): string {
  return [
    `${mail.inviter ?? 'Your organization'} invited you to the messaging console.`,
    '',
    `Accept the invitation and choose your password here (the link works once, until ${mail.expiresAt.toISOString()}):`,
    mail.url,
    '',
    'If you did not expect this, ignore this mail.',
  ].join('\n');
}

/** Invitation mail over SMTP (nodemailer). A failed send is logged (without the link) and reported as not sent. */
export class SmtpInviteMailer implements InviteMailer {
  readonly configured = true;
  private readonly transport: Transporter;

  constructor(
    config: MembersConfig,
    private readonly logger: Logger,
  ) {
    this.transport = createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } : undefined,
      tls: { rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    this.from = config.SMTP_FROM as string;
  }

  private readonly from: string;

  async send(mail: InviteMail): Promise<boolean> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject: 'You are invited to the messaging console',
        text: inviteText(mail),
      });
      return true;
    } catch (err) {
      this.logger.warn(
        { err: (err as Error).message, to_domain: mail.to.split('@')[1] },
        'invitation mail not sent; the link goes back to the inviter',
      );
      return false;
    }
  }

  close(): void {
    this.transport.close();
  }
}
