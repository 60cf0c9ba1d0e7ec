import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute, type RouteContract } from '../../http/define-route';
import { defineRpc, type RpcRequest } from '../../rpc/define-rpc';
import { PhoneSchema } from '../phone/phone.schema';
import { CloudApiCredentialsSchema } from '../cloud-api/cloud-api-credentials';

/** Phone routes (../shared/reference/wider-api.md "phones"; resync per spec 4.6). Subjects phones.v1.<name>. */
const rpc = <Res extends z.ZodType, B extends z.ZodType = z.ZodOptional<z.ZodUnknown>>(name: string, response: Res, body?: B) =>
  defineRpc({
    subject: `phones.v1.${name}`,
    service: 'phones',
    // A route without a body takes none: whatever arrives there is ignored.
    request: z.object({ ctx: RequestContextSchema, body: (body ?? z.unknown().optional()) as B }).loose(),
    response,
  });

const route = (over: Omit<RouteContract, 'tag' | 'successStatus'> & { successStatus?: number }): RouteContract =>
  defineRoute({ tag: 'phones', successStatus: 200, ...over });

export const CreatePhoneBody = z
  .object({
    phone_name: z.string().min(1).max(100).optional(),
    /** A phone of the WhatsApp Business Cloud API instead of a QR-paired one (docs/services/cloud-api.md). */
    cloud_api: CloudApiCredentialsSchema.optional(),
  })
  .optional();
export const UpdatePhoneBody = z
  .object({
    phone_name: z.string().min(1).max(100).optional(),
    phone_image: z.url().nullable().optional(),
    labels: z.array(z.string().min(1).max(50)).max(50).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one of phone_name, phone_image, labels' });
export const QrResponse = z.object({ phone_id: z.string(), wa_state: z.string(), qr_code: z.string() });
export const PairingCodeBody = z.object({ number: z.string().regex(/^[0-9]{6,20}$/, 'must be phone digits (country code + number)') });
export const PairingCodeResponse = z.object({ phone_id: z.string(), pairing_code: z.string() });
const NoContent = z.null();

export const GetPhoneRpc = rpc('get', PhoneSchema);
export const ListPhonesRpc = rpc('list', z.array(PhoneSchema));
export const GetQrRpc = rpc('qr', QrResponse);
export const CreatePhoneRpc = rpc('create', PhoneSchema, CreatePhoneBody);
export const UpdatePhoneRpc = rpc('update', PhoneSchema, UpdatePhoneBody);
export const RestartPhoneRpc = rpc('restart', NoContent);
export const ResetPhoneRpc = rpc('reset', NoContent);
export const DeletePhoneRpc = rpc('delete', NoContent);
export const ResyncPhoneRpc = rpc('resync', NoContent);
export const PairingCodeRpc = rpc('pairing-code', PairingCodeResponse, PairingCodeBody);

export const PHONE_ROUTES: readonly RouteContract[] = [
  route({
    operationId: 'getPhone',
    method: 'GET',
    path: '/phones',
    summary: 'The phone named by x-phone',
    phone: 'required',
    rpc: GetPhoneRpc,
    response: PhoneSchema,
  }),
  route({
    operationId: 'listPhones',
    method: 'GET',
    path: '/phones/all',
    summary: 'Every phone the token reaches',
    phone: 'none',
    rpc: ListPhonesRpc,
    response: z.array(PhoneSchema),
  }),
  route({
    operationId: 'getPhoneQr',
    method: 'GET',
    path: '/phones/qr',
    summary: 'The current QR code (only while the phone is not connected)',
    phone: 'required',
    rpc: GetQrRpc,
    response: QrResponse,
  }),
  route({
    operationId: 'createPhone',
    method: 'POST',
    path: '/phones/create',
    summary: 'Create a phone slot; it shows a QR to scan (or connects a Cloud API number given `cloud_api`)',
    phone: 'none',
    role: 'admin',
    rpc: CreatePhoneRpc,
    body: CreatePhoneBody,
    successStatus: 201,
    response: PhoneSchema,
  }),
  route({
    operationId: 'getPairingCode',
    method: 'POST',
    path: '/phones/pairing-code',
    summary: 'Pair by code instead of scanning the QR: type the answered code on the phone',
    description: 'Only while the phone shows a QR (not yet paired); 400 ERROR otherwise or when its session is not running.',
    phone: 'required',
    rpc: PairingCodeRpc,
    body: PairingCodeBody,
    response: PairingCodeResponse,
  }),
  route({
    operationId: 'updatePhone',
    method: 'PATCH',
    path: '/phones/update',
    summary: 'Change name, image or labels',
    phone: 'required',
    rpc: UpdatePhoneRpc,
    body: UpdatePhoneBody,
    response: PhoneSchema,
  }),
  route({
    operationId: 'restartPhone',
    method: 'POST',
    path: '/phones/restart',
    summary: "Restart the phone's session",
    phone: 'required',
    rpc: RestartPhoneRpc,
    successStatus: 204,
  }),
  route({
    operationId: 'resetPhone',
    method: 'POST',
    path: '/phones/reset',
    summary: 'Log the phone out; it goes back to QR',
    phone: 'required',
    role: 'admin',
    rpc: ResetPhoneRpc,
    successStatus: 204,
  }),
  route({
    operationId: 'deletePhone',
    method: 'DELETE',
    path: '/phones/delete',
    summary: 'Log out and delete the phone',
    phone: 'required',
    role: 'admin',
    rpc: DeletePhoneRpc,
    successStatus: 204,
    audit: { action: 'phone.deleted', target: 'x-phone' },
  }),
  route({
    operationId: 'resyncPhone',
    method: 'POST',
    path: '/phones/resync',
    summary: 'Full resync between the messaging network and the service (spec 4.6)',
    description: "The phone must be connected (400 ERROR otherwise). Progress shows in the phone's sync_status and sync_progress.",
    phone: 'required',
    rpc: ResyncPhoneRpc,
    successStatus: 204,
  }),
];

export type GetPhoneRequest = RpcRequest<typeof GetPhoneRpc>;
export type ListPhonesRequest = RpcRequest<typeof ListPhonesRpc>;
export type GetQrRequest = RpcRequest<typeof GetQrRpc>;
export type QrResponse = z.infer<typeof QrResponse>;
export type CreatePhoneRequest = RpcRequest<typeof CreatePhoneRpc>;
export type UpdatePhoneRequest = RpcRequest<typeof UpdatePhoneRpc>;
export type RestartPhoneRequest = RpcRequest<typeof RestartPhoneRpc>;
export type ResetPhoneRequest = RpcRequest<typeof ResetPhoneRpc>;
export type DeletePhoneRequest = RpcRequest<typeof DeletePhoneRpc>;
export type ResyncPhoneRequest = RpcRequest<typeof ResyncPhoneRpc>;
export type PairingCodeRequest = RpcRequest<typeof PairingCodeRpc>;
export type PairingCodeResponse = z.infer<typeof PairingCodeResponse>;
