import type { Prisma, PrismaClient } from '@mapi/db';
import { generatePassword } from '@mapi/platform';
import { newPhoneId } from '../../shared/random-ids';
import { CreateOwner, OwnerExistsError } from '../create-owner/create-owner.usecase';
import { CreateToken } from '../create-token/create-token.usecase';
import { buildDemoMessages } from './demo-messages';
import { DEMO_CHATS, DEMO_ORG_NAME, DEMO_OWNER_EMAIL, DEMO_OWNER_NAME, DEMO_PHONES, DEMO_TOKEN_NAME } from './demo-script';

/** Serialises concurrent seeders (pg_advisory_xact_lock key), so two runs never make two demo orgs. */
const SEED_LOCK_KEY = 727_083_001;

export interface SeedDemoResult {
  org_id: string;
  org_name: string;
  /** False when the demo organization already existed. */
  org_created: boolean;
  /** A new token of the demo organization, shown once. */
  token: string;
  token_id: string;
  token_prefix: string;
  phones: { phone_id: string; org_phone: string; phone_name: string | null }[];
  chats: { phone_id: string; chat_id: string; chat_name: string; chat_type: string; messages: number }[];
  /** Rows added by this run (0 when the demo data was complete). */
  messages_inserted: number;
  /**
   * The owner's console sign-in, with a new password each run (shown once). null when the demo
   * organization has another owner, set up by an operator: that one is left alone.
   */
  console: { email: string; password: string } | null;
}

/**
 * Seeds a demo organization ("Demo Org", plan pro) with two connected phones, one individual and
 * one group chat, and about fifty messages. Idempotent: the organization, phones, chats and
 * messages are found again on later runs (message ids are derived, not random); only the demo
 * token is new each time, and the owner's console password (owner@demo.example.com: created on
 * the first run, its password reset and its sessions ended on later ones).
 */
export class SeedDemo {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(now: Date = new Date()): Promise<SeedDemoResult> {
    const seeded = await this.prisma.$transaction((tx) => this.seed(tx, now), { timeout: 30_000 });
    const token = await new CreateToken(this.prisma).execute({ orgId: seeded.org_id, name: DEMO_TOKEN_NAME });
    return { ...seeded, token: token.token, token_id: token.id, token_prefix: token.prefix, console: await this.owner(seeded.org_id) };
  }

  private async owner(orgId: string): Promise<SeedDemoResult['console']> {
    const password = generatePassword();
    try {
      const owner = await new CreateOwner(this.prisma).execute({
        orgId,
        email: DEMO_OWNER_EMAIL,
        password,
        name: DEMO_OWNER_NAME,
        reset: true,
        command: 'seed:demo',
      });
      return { email: owner.email, password };
    } catch (error) {
      if (error instanceof OwnerExistsError) return null;
      throw error;
    }
  }

  private async seed(tx: Prisma.TransactionClient, now: Date) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY}::bigint)`;
    const existing = await tx.organization.findFirst({ where: { name: DEMO_ORG_NAME }, orderBy: { created_at: 'asc' } });
    const org = existing ?? (await tx.organization.create({ data: { name: DEMO_ORG_NAME, plan: 'pro', plan_active: true } }));

    const phones: (Prisma.PhoneModel & { org_phone: string })[] = [];
    for (const demo of DEMO_PHONES) {
      const orgPhone = `${demo.digits}@c.us`;
      const found = await tx.phone.findFirst({
        where: { org_id: org.id, org_phone: orgPhone, deleted_at: null },
        orderBy: { created_at: 'asc' },
      });
      const phone =
        found ??
        (await tx.phone.create({
          data: {
            phone_id: newPhoneId(),
            org_id: org.id,
            org_phone: orgPhone,
            phone_name: demo.name,
            wa_state: 'CONNECTED',
            is_ready: true,
            first_connected_at: now,
          },
        }));
      phones.push({ ...phone, org_phone: orgPhone }); // found by that number, or created with it
      // The phone as the sandbox network sees it: paired and online, so its session connects at once.
      // A device its session created before it was paired (no number yet) is paired now.
      const device = await tx.sandboxDevice.findUnique({ where: { phone_id: phone.phone_id } });
      if (!device)
        await tx.sandboxDevice.create({ data: { phone_id: phone.phone_id, org_id: org.id, number: demo.digits, state: 'CONNECTED' } });
      else if (!device.number)
        await tx.sandboxDevice.update({ where: { phone_id: phone.phone_id }, data: { number: demo.digits, state: 'CONNECTED', qr: null } });
    }

    let inserted = 0;
    const chats = [];
    for (const chat of DEMO_CHATS) {
      const phone = phones[chat.phone];
      const key = { phone_id: phone.phone_id, chat_id: chat.chat_id };
      await tx.chat.upsert({
        where: { phone_id_chat_id: key },
        create: { ...key, org_id: org.id, chat_name: chat.chat_name, chat_type: chat.chat_type },
        update: {},
      });
      const rows = buildDemoMessages(org.id, phone, chat, now);
      inserted += (await tx.message.createMany({ data: rows, skipDuplicates: true })).count;
      const messages = await tx.message.count({ where: key });
      chats.push({ ...key, chat_name: chat.chat_name, chat_type: chat.chat_type, messages });
    }

    return {
      org_id: org.id,
      org_name: org.name,
      org_created: existing === null,
      phones: phones.map((p) => ({ phone_id: p.phone_id, org_phone: p.org_phone, phone_name: p.phone_name })),
      chats,
      messages_inserted: inserted,
    };
  }
}
