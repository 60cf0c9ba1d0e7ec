import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  CreatePhoneRpc,
  DeletePhoneRpc,
  GetPhoneRpc,
  GetQrRpc,
  ListPhonesRpc,
  ResetPhoneRpc,
  RestartPhoneRpc,
  ResyncPhoneRpc,
  PairingCodeRpc,
  UpdatePhoneRpc,
  type RequestContext,
} from '@mapi/contracts';
import { PhoneCommands } from './usecases/phone-commands.usecase';
import { PhoneQueries } from './usecases/phone-queries.usecase';

type Req<B = unknown> = { ctx: RequestContext; body?: B };

/** NATS handlers of the phone routes; requests arrive validated against their contracts. */
@Controller()
export class PhonesController {
  constructor(
    @Inject(PhoneQueries) private readonly queries: PhoneQueries,
    @Inject(PhoneCommands) private readonly commands: PhoneCommands,
  ) {}

  @MessagePattern(GetPhoneRpc.subject) get({ ctx }: Req) {
    return this.queries.get(ctx);
  }
  @MessagePattern(ListPhonesRpc.subject) list({ ctx }: Req) {
    return this.queries.list(ctx);
  }
  @MessagePattern(GetQrRpc.subject) qr({ ctx }: Req) {
    return this.queries.qr(ctx);
  }
  @MessagePattern(CreatePhoneRpc.subject) create({ ctx, body }: Req<{ phone_name?: string }>) {
    return this.commands.create(ctx, body);
  }
  @MessagePattern(UpdatePhoneRpc.subject) update({ ctx, body }: Req<{ phone_name?: string }>) {
    return this.commands.update(ctx, body ?? {});
  }
  @MessagePattern(RestartPhoneRpc.subject) restart({ ctx }: Req) {
    return this.commands.restart(ctx);
  }
  @MessagePattern(ResetPhoneRpc.subject) reset({ ctx }: Req) {
    return this.commands.reset(ctx);
  }
  @MessagePattern(DeletePhoneRpc.subject) delete({ ctx }: Req) {
    return this.commands.delete(ctx);
  }
  @MessagePattern(PairingCodeRpc.subject) pairingCode({ ctx, body }: Req<{ number: string }>) {
    return this.commands.pairingCode(ctx, body!);
  }
  @MessagePattern(ResyncPhoneRpc.subject) resync({ ctx }: Req) {
    return this.commands.resync(ctx);
  }
}
