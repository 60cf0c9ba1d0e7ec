import type { PrismaClient } from '@mapi/db';
import { requireOrganization } from '../../shared/validation';
import { AdminError } from '../../admin-error';

export interface SeedSelfLearnedCommand {
  orgId: string;
  question: string;
  answer: string;
  /** Self-learned entries wait for approval (inactive) unless told otherwise. */
  active?: boolean;
}

export interface SelfLearnedView {
  context_id: string;
  org_id: string;
  type: 'self-learned';
  question: string;
  answer: string;
  is_active: boolean;
}

/**
 * Adds a knowledge-base entry of type `self-learned`, as the AI agent would (spec 2.2): listed by
 * GET /v1/knowledge-base, approvable through PATCH, never deleted by the FAQ route. Its embedding
 * is computed when it is approved or edited through the API (until then search does not find it).
 */
export class SeedSelfLearned {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: SeedSelfLearnedCommand): Promise<SelfLearnedView> {
    const question = (command.question ?? '').trim();
    const answer = (command.answer ?? '').trim();
    if (!question || !answer) throw new AdminError('a self-learned entry needs a non-empty --question and --answer');
    const org = await requireOrganization(this.prisma, command.orgId);
    const row = await this.prisma.knowledgeBaseEntry.create({
      data: { org_id: org.id, type: 'self-learned', question, answer, is_active: command.active ?? false, tags: [] },
      select: { context_id: true, org_id: true, question: true, answer: true, is_active: true },
    });
    return { ...row, type: 'self-learned' };
  }
}
