import { createOrg, createPhone, randomDigits, useTestDatabase } from '@mapi/testing';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('apply_group_settings');

describe('group settings from groups upserts', () => {
  it("keeps the settings reported on the phone's copy of the chat, and leaves unreported ones as they were", async () => {
    const org = await createOrg(t.prisma);
    const phone = await createPhone(t.prisma, org.id);
    const p = { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
    const chat_id = `120363${randomDigits(12)}@g.us`;
    const participants = [{ id: p.org_phone, admin: true }];
    const apply = (g: object) =>
      new ApplyIngest(t.prisma).execute([{ ...p, kind: 'groups-upsert', groups: [{ chat_id, subject: 'Team', participants, ...g }] }]);
    const stored = () => t.prisma.chat.findUniqueOrThrow({ where: { phone_id_chat_id: { phone_id: p.phone_id, chat_id } } });

    await apply({});
    expect(await stored()).toMatchObject({
      group_description: null,
      messages_admins_only: false,
      info_admins_only: false,
      add_members_admins_only: null,
    });
    await apply({ description: 'About', announce: true, restrict: true, member_add_admins_only: false });
    expect(await stored()).toMatchObject({
      group_description: 'About',
      messages_admins_only: true,
      info_admins_only: true,
      add_members_admins_only: false,
    });
    await apply({ announce: false });
    expect(await stored()).toMatchObject({ group_description: 'About', messages_admins_only: false, info_admins_only: true });
    await apply({ description: '' });
    expect((await stored()).group_description).toBeNull();
  });
});
