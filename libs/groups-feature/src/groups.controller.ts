import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ParticipantsRpc, type ParticipantsRequest } from '@mapi/contracts';
import type { ChangeParticipants } from './usecases/change-participants/change-participants.usecase';

export const PARTICIPANT_USE_CASES = 'PARTICIPANT_USE_CASES';
type UseCases = Record<'add' | 'remove' | 'promote' | 'demote', ChangeParticipants>;

/** NATS handlers of the group participant routes. */
@Controller()
export class GroupsController {
  constructor(@Inject(PARTICIPANT_USE_CASES) private readonly useCases: UseCases) {}

  @MessagePattern(ParticipantsRpc.add.subject) add(r: ParticipantsRequest) {
    return this.useCases.add.execute(r);
  }
  @MessagePattern(ParticipantsRpc.remove.subject) remove(r: ParticipantsRequest) {
    return this.useCases.remove.execute(r);
  }
  @MessagePattern(ParticipantsRpc.promote.subject) promote(r: ParticipantsRequest) {
    return this.useCases.promote.execute(r);
  }
  @MessagePattern(ParticipantsRpc.demote.subject) demote(r: ParticipantsRequest) {
    return this.useCases.demote.execute(r);
  }
}
