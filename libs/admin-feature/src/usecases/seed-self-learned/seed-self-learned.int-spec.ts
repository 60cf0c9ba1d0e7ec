import { useTestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { SeedSelfLearned } from './seed-self-learned.usecase';

describe('SeedSelfLearned', () => {
  const t = useTestDatabase('admin_kb_self_learned');
  let orgId: string;

  beforeAll(async () => {
    orgId = (await new CreateOrganization(t.prisma).execute({ name: 'Agent Co' })).id;
  });

  it('adds an inactive self-learned entry of the organization', async () => {
    const entry = await new SeedSelfLearned(t.prisma).execute({ orgId, question: ' Opening hours? ', answer: '9 to 5' });
    expect(entry).toMatchObject({ type: 'self-learned', question: 'Opening hours?', answer: '9 to 5', is_active: false, org_id: orgId });
    const row = await t.prisma.knowledgeBaseEntry.findUniqueOrThrow({ where: { context_id: entry.context_id } });
    expect(row).toMatchObject({ type: 'self-learned', document_id: null, metadata: null });
  });

  it('refuses empty text and unknown organizations', async () => {
    await expect(new SeedSelfLearned(t.prisma).execute({ orgId, question: ' ', answer: 'x' })).rejects.toThrow(AdminError);
    await expect(
      new SeedSelfLearned(t.prisma).execute({ orgId: '00000000-0000-4000-8000-000000000000', question: 'q', answer: 'a' }),
    ).rejects.toThrow(AdminError);
  });
});
