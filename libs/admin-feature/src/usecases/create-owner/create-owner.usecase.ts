import { randomUUID } from 'node:crypto';
import { EmailSchema, NewPasswordSchema } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { generatePassword, hashPassword } from '@mapi/platform';
import { AdminError } from '../../admin-error';
import { requireName, requireOrganization } from '../../shared/validation';

export interface CreateOwnerCommand {
  orgId: string;
  email: string;
  /** Omitted: a strong password is generated and returned, once. */
  password?: string;
  /** The member's name (as accept-invite's `name`: at most 100 characters). */
  name?: string;
  /** When this address already is the owner: set the new password (else that is refused). */
  reset?: boolean;
  /** The operator's command, recorded in the audit entry's details. */
  command?: string;
}

export interface OwnerResult {
  org_id: string;
  member_id: string;
  email: string;
  member_name: string | null;
  role: 'owner';
  /** False when the owner existed and its password was reset. */
  created: boolean;
  password_reset: boolean;
  /** Console sessions of the owner ended by a reset (0 on creation). */
  sessions_ended: number;
  password_generated: boolean;
  /** Only when generated: shown this once, never stored. */
  password?: string;
}

/** The organization already has an owner with another address. */
export class OwnerExistsError extends AdminError {
  constructor(
    readonly orgId: string,
    readonly ownerEmail: string,
  ) {
    super(`organization ${orgId} already has an owner (${ownerEmail}); an organization has one owner`);
  }
}

/** Serialises owner changes per organization (two runs must not make two owners). */
const lockKey = (orgId: string) => `mapi:members:owner:${orgId}`;

/**
 * Creates the owner of an organization with a password (argon2id, the members service's rule), or,
 * with `reset`, sets a new password for the address that already is the owner and ends its console
 * sessions. Refuses a second owner and an address that is already a member. Recorded in the
 * members' audit trail with the operator as actor (`member.owner_created`, `member.password_reset`).
 */
export class CreateOwner {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: CreateOwnerCommand): Promise<OwnerResult> {
    const org = await requireOrganization(this.prisma, command.orgId);
    const email = parseEmail(command.email);
    const name = command.name === undefined ? undefined : requireName(command.name, 'name', 100);
    const generated = command.password === undefined ? generatePassword() : undefined;
    const passwordHash = await hashPassword(generated ?? parsePassword(command.password));
    const by = command.command ?? 'members:create-owner';

    const outcome = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(org.id)}::text, 0))`;
      const owner = await tx.member.findFirst({ where: { org_id: org.id, role: 'owner' }, orderBy: { created_at: 'asc' } });
      if (owner && owner.email !== email) throw new OwnerExistsError(org.id, owner.email);
      if (owner) {
        if (!command.reset) throw new AdminError(`${email} already is the owner of organization ${org.id}; --reset sets a new password`);
        return this.reset(tx, owner, passwordHash, name, by);
      }
      const member = await tx.member.findFirst({ where: { org_id: org.id, email } });
      if (member) {
        const state = member.password_hash ? 'active' : 'invited';
        throw new AdminError(
          `${email} already is a member of organization ${org.id} (role ${member.role}, ${state}); the owner needs an address that is not a member yet`,
        );
      }
      return this.create(tx, org.id, email, passwordHash, name, by);
    });

    return {
      org_id: org.id,
      member_id: outcome.member.member_id,
      email,
      member_name: outcome.member.member_name,
      role: 'owner',
      created: outcome.created,
      password_reset: !outcome.created,
      sessions_ended: outcome.sessionsEnded,
      password_generated: generated !== undefined,
      ...(generated === undefined ? {} : { password: generated }),
    };
  }

  private async create(
    tx: Prisma.TransactionClient,
    orgId: string,
    email: string,
    passwordHash: string,
    name: string | undefined,
    by: string,
  ) {
    const now = new Date();
    const member = await tx.member.create({
      data: {
        member_id: randomUUID(),
        org_id: orgId,
        email,
        member_name: name ?? null,
        role: 'owner',
        password_hash: passwordHash,
        joined_at: now,
      },
    });
    await audit(tx, orgId, 'member.owner_created', email, { by, role: 'owner' });
    return { member, created: true, sessionsEnded: 0 };
  }

  private async reset(tx: Prisma.TransactionClient, owner: Prisma.MemberModel, passwordHash: string, name: string | undefined, by: string) {
    const now = new Date();
    const member = await tx.member.update({
      where: { member_id: owner.member_id, org_id: owner.org_id },
      data: { password_hash: passwordHash, joined_at: owner.joined_at ?? now, ...(name === undefined ? {} : { member_name: name }) },
    });
    // A new password ends the sessions opened with the old one (whoever held them).
    const { count } = await tx.memberSession.updateMany({
      where: { org_id: owner.org_id, member_id: owner.member_id, revoked_at: null },
      data: { revoked_at: now },
    });
    await audit(tx, owner.org_id, 'member.password_reset', owner.email, { by, sessions_ended: count });
    return { member, created: false, sessionsEnded: count };
  }
}

function audit(tx: Prisma.TransactionClient, orgId: string, action: string, target: string, details: Record<string, unknown>) {
  return tx.memberAuditEntry.create({
    data: {
      audit_id: randomUUID(),
      org_id: orgId,
      actor_type: 'operator',
      actor_id: null,
      actor_email: null,
      action,
      target,
      details: details as Prisma.InputJsonValue,
    },
  });
}

function parseEmail(value: string | undefined): string {
  const parsed = EmailSchema.safeParse(value ?? '');
  if (!parsed.success) throw new AdminError(`email "${(value ?? '').trim()}" is not valid: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** accept-invite's rule (NewPasswordSchema); the message never repeats the password. */
function parsePassword(value: string | undefined): string {
  const parsed = NewPasswordSchema.safeParse(value);
  if (!parsed.success) throw new AdminError(parsed.error.issues[0].message);
  return parsed.data;
}
