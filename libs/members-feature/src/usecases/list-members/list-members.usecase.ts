import type { ListMembersRequest, MemberRow } from '@mapi/contracts';
import { mapMember } from '../../map-member';
import type { MemberRepository } from '../../repositories/member-repository';

/** GET /members: every member of the organization, invited or active, oldest first. */
export class ListMembers {
  constructor(private readonly members: MemberRepository) {}

  async execute({ ctx }: ListMembersRequest): Promise<MemberRow[]> {
    return (await this.members.list(ctx.org_id)).map(mapMember);
  }
}
