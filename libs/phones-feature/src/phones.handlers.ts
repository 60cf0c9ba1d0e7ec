import {
  CreatePhoneRpc,
  DeletePhoneRpc,
  GetPhoneRpc,
  GetQrRpc,
  ListPhonesRpc,
  PairingCodeRpc,
  PhoneDirectoryRpc,
  ResetPhoneRpc,
  RestartPhoneRpc,
  ResyncPhoneRpc,
  SandboxAckRpc,
  SandboxGroupChangeRpc,
  SandboxDeleteRpc,
  SandboxEditRpc,
  SandboxReactRpc,
  SandboxGroupRpc,
  SandboxInboundRpc,
  SandboxScanRpc,
  SandboxStateRpc,
  UpdatePhoneRpc,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { SessionCommands } from '@mapi/events';
import { rpcHandler } from '@mapi/platform';
import { ImportPhonesRpc } from '@mapi/contracts';
import { ImportPhones } from './usecases/import-phones/import-phones.usecase';
import type { PhoneRepository } from './repositories/phone-repository';
import type { SandboxPhones } from './sandbox/sandbox-phones';
import type { CloudApiStore } from './cloud-api/cloud-api-store';
import { CreatePhone } from './usecases/create-phone/create-phone.usecase';
import { DeletePhone } from './usecases/delete-phone/delete-phone.usecase';
import { GetPhone } from './usecases/get-phone/get-phone.usecase';
import { GetQr } from './usecases/get-qr/get-qr.usecase';
import { ListPhoneDirectory } from './usecases/list-phone-directory/list-phone-directory.usecase';
import { ListPhones } from './usecases/list-phones/list-phones.usecase';
import { RequestPairingCode } from './usecases/request-pairing-code/request-pairing-code.usecase';
import { ResetPhone } from './usecases/reset-phone/reset-phone.usecase';
import { RestartPhone } from './usecases/restart-phone/restart-phone.usecase';
import { ResyncPhone } from './usecases/resync-phone/resync-phone.usecase';
import { SandboxAck } from './usecases/sandbox-ack/sandbox-ack.usecase';
import { SandboxChangeGroup } from './usecases/sandbox-change-group/sandbox-change-group.usecase';
import { SandboxDeleteMessage } from './usecases/sandbox-delete-message/sandbox-delete-message.usecase';
import { SandboxEditMessage } from './usecases/sandbox-edit-message/sandbox-edit-message.usecase';
import { SandboxReactMessage } from './usecases/sandbox-react-message/sandbox-react-message.usecase';
import { SandboxCreateGroup } from './usecases/sandbox-create-group/sandbox-create-group.usecase';
import { SandboxDeliver } from './usecases/sandbox-deliver/sandbox-deliver.usecase';
import { SandboxScan } from './usecases/sandbox-scan/sandbox-scan.usecase';
import { SandboxSetState } from './usecases/sandbox-set-state/sandbox-set-state.usecase';
import { UpdatePhone } from './usecases/update-phone/update-phone.usecase';

export interface PhonesDeps {
  prisma: PrismaClient;
  phones: PhoneRepository;
  sessions: SessionCommands;
  defaultConnector: string;
  /** Cloud API phones' secrets (absent: phones with `cloud_api` are refused). */
  cloudApi?: CloudApiStore;
}

const serve = rpcHandler<PhonesDeps>();

/** What the phones service answers: one line per operation, its contract and its use case. */
export const PHONES_HANDLERS = [
  serve(GetPhoneRpc, (d) => new GetPhone(d.phones)),
  serve(ListPhonesRpc, (d) => new ListPhones(d.phones)),
  serve(GetQrRpc, (d) => new GetQr(new GetPhone(d.phones))),
  serve(CreatePhoneRpc, (d) => new CreatePhone(d.phones, d.defaultConnector, d.cloudApi)),
  serve(ImportPhonesRpc, (d) => new ImportPhones(d.prisma, d.defaultConnector)),
  serve(UpdatePhoneRpc, (d) => new UpdatePhone(d.prisma)),
  serve(RestartPhoneRpc, (d) => new RestartPhone(d.sessions)),
  serve(ResetPhoneRpc, (d) => new ResetPhone(d.sessions)),
  serve(DeletePhoneRpc, (d) => new DeletePhone(d.prisma, d.sessions)),
  serve(PairingCodeRpc, (d) => new RequestPairingCode(d.sessions)),
  serve(ResyncPhoneRpc, (d) => new ResyncPhone(d.sessions)),
  serve(PhoneDirectoryRpc, (d) => new ListPhoneDirectory(d.phones)),
];

const sandbox = rpcHandler<SandboxPhones>();

/** The sandbox network's control API, also served by the phones service (only when SANDBOX_ENABLED). */
export const SANDBOX_HANDLERS = [
  sandbox(SandboxScanRpc, (s) => new SandboxScan(s)),
  sandbox(SandboxStateRpc, (s) => new SandboxSetState(s)),
  sandbox(SandboxGroupRpc, (s) => new SandboxCreateGroup(s)),
  sandbox(SandboxInboundRpc, (s) => new SandboxDeliver(s)),
  sandbox(SandboxAckRpc, (s) => new SandboxAck(s)),
  sandbox(SandboxGroupChangeRpc, (s) => new SandboxChangeGroup(s)),
  sandbox(SandboxEditRpc, (s) => new SandboxEditMessage(s)),
  sandbox(SandboxDeleteRpc, (s) => new SandboxDeleteMessage(s)),
  sandbox(SandboxReactRpc, (s) => new SandboxReactMessage(s)),
];
