import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { SandboxAckRpc, SandboxGroupRpc, SandboxInboundRpc, SandboxScanRpc, SandboxStateRpc, type RequestContext } from '@mapi/contracts';
import { SandboxControl } from './sandbox-control.usecase';

type Req<B> = { ctx: RequestContext; body: B };

/** NATS handlers of the sandbox control API (registered only when SANDBOX_ENABLED). */
@Controller()
export class SandboxController {
  constructor(@Inject(SandboxControl) private readonly control: SandboxControl) {}

  @MessagePattern(SandboxScanRpc.subject) scan({ ctx, body }: Req<{ number: string }>) {
    return this.control.scan(ctx, body);
  }
  @MessagePattern(SandboxStateRpc.subject) state({ ctx, body }: Req<{ state: 'CONNECTED' | 'DISCONNECTED' | 'UNREACHABLE' }>) {
    return this.control.setState(ctx, body);
  }
  @MessagePattern(SandboxGroupRpc.subject) group({ ctx, body }: Req<Parameters<SandboxControl['createGroup']>[1]>) {
    return this.control.createGroup(ctx, body);
  }
  @MessagePattern(SandboxInboundRpc.subject) inbound({ ctx, body }: Req<Parameters<SandboxControl['deliver']>[1]>) {
    return this.control.deliver(ctx, body);
  }
  @MessagePattern(SandboxAckRpc.subject) ack({ ctx, body }: Req<{ unique_id: string; ack: number }>) {
    return this.control.ack(ctx, body);
  }
}
