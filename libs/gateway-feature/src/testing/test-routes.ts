import { createHash } from 'node:crypto';
import { HttpReply, RequestContextSchema, defineRoute, defineRpc } from '@mapi/contracts';
import { rpcHandler } from '@mapi/platform';
import { z } from 'zod';

/** Routes and a service that exist only in the gateway's integration test, to drive every error path. */
const ctxOnly = z.object({ ctx: RequestContextSchema }).loose();

export const EchoBody = z.object({ text: z.string().min(1), n: z.number().int().optional() });
export const EchoRpc = defineRpc({
  subject: 'testecho.v1.echo',
  service: 'testecho',
  request: z.object({ ctx: RequestContextSchema, body: EchoBody, headers: z.record(z.string(), z.string()).optional() }),
  response: z.object({
    text: z.string(),
    org_id: z.string(),
    phone_id: z.string().nullable(),
    idempotency_key: z.string().nullable().optional(),
  }),
});
export const OptionalBodyRpc = defineRpc({
  subject: 'testecho.v1.optional',
  service: 'testecho',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ ids: z.array(z.string()) }).optional() }),
  response: z.object({ mode: z.string() }),
});
export const SlowRpc = defineRpc({ subject: 'testecho.v1.slow', service: 'testecho', request: ctxOnly, response: z.object({}) });
export const BoomRpc = defineRpc({ subject: 'testecho.v1.boom', service: 'testecho', request: ctxOnly, response: z.object({}) });
export const StatusRpc = defineRpc({
  subject: 'testecho.v1.status',
  service: 'testecho',
  request: ctxOnly,
  response: z.object({ ok: z.boolean() }),
});
export const UploadBody = z.object({
  document: z.object({
    filename: z.string().min(1),
    file: z.string().min(1).optional(),
    base64: z.string().optional(),
    mimetype: z.string().optional(),
  }),
  is_active: z.boolean({ error: 'is_active must be a boolean' }).default(false),
  note: z.string().optional(),
});
export const UploadRpc = defineRpc({
  subject: 'testecho.v1.upload',
  service: 'testecho',
  request: z.object({ ctx: RequestContextSchema, body: UploadBody }),
  response: z.object({
    filename: z.string(),
    mimetype: z.string().nullable(),
    size: z.number(),
    sha256: z.string(),
    is_active: z.boolean(),
    note: z.string().nullable(),
  }),
});
export const NobodyRpc = defineRpc({ subject: 'testnobody.v1.none', service: 'testnobody', request: ctxOnly, response: z.object({}) });

const route = (
  over: Partial<Parameters<typeof defineRoute>[0]> & Pick<Parameters<typeof defineRoute>[0], 'operationId' | 'method' | 'path' | 'rpc'>,
) => defineRoute({ tag: 'test', summary: over.operationId, phone: 'none', successStatus: 200, response: z.object({}), ...over });

export const TEST_ROUTES = [
  route({
    operationId: 'echo',
    method: 'POST',
    path: '/test/echo',
    rpc: EchoRpc,
    body: EchoBody,
    phone: 'optional',
    response: EchoRpc.response,
    headers: ['idempotency-key'],
  }),
  route({ operationId: 'limited', method: 'POST', path: '/test/limited', rpc: EchoRpc, body: EchoBody, response: EchoRpc.response }),
  route({
    operationId: 'optional',
    method: 'POST',
    path: '/test/optional',
    rpc: OptionalBodyRpc,
    body: OptionalBodyRpc.request.shape.body,
    response: OptionalBodyRpc.response,
  }),
  route({ operationId: 'slow', method: 'GET', path: '/test/slow', rpc: SlowRpc }),
  route({ operationId: 'boom', method: 'GET', path: '/test/boom', rpc: BoomRpc }),
  route({ operationId: 'status', method: 'GET', path: '/test/status', rpc: StatusRpc, response: StatusRpc.response }),
  route({
    operationId: 'item',
    method: 'GET',
    path: '/test/items/{id}',
    rpc: StatusRpc,
    params: z.object({ id: z.string().min(1) }),
    response: StatusRpc.response,
  }),
  route({ operationId: 'nobody', method: 'GET', path: '/test/nobody', rpc: NobodyRpc }),
  route({
    operationId: 'upload',
    method: 'POST',
    path: '/test/upload',
    rpc: UploadRpc,
    body: UploadBody,
    response: UploadRpc.response,
    upload: { fileField: 'document', booleanFields: ['is_active'] },
  }),
  route({
    operationId: 'resync',
    method: 'POST',
    path: '/test/needs-phone',
    rpc: OptionalBodyRpc,
    phone: 'required',
    successStatus: 204,
    response: undefined,
  }),
];

const serve = rpcHandler<void>();

/** The test service's handler table (testecho.v1.*). */
export const TEST_SERVICE_HANDLERS = [
  serve(EchoRpc, () => ({
    execute: ({ ctx, body, headers }) => ({
      text: body.text,
      org_id: ctx.org_id,
      phone_id: ctx.phone?.phone_id ?? null,
      ...(headers ? { idempotency_key: headers['idempotency-key'] ?? null } : {}),
    }),
  })),
  serve(OptionalBodyRpc, () => ({ execute: ({ body }) => ({ mode: body ? 'ids' : 'all' }) })),
  serve(SlowRpc, () => ({ execute: async () => (await new Promise((r) => setTimeout(r, 1_500)), {}) })),
  serve(UploadRpc, () => ({
    execute: ({ body }) => {
      const bytes = Buffer.from(body.document.file ?? body.document.base64 ?? '', 'base64');
      return {
        filename: body.document.filename,
        mimetype: body.document.mimetype ?? null,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        is_active: body.is_active,
        note: body.note ?? null,
      };
    },
  })),
  serve(StatusRpc, () => ({ execute: () => new HttpReply(409, { error: 'This URL belongs to a different organization' }) })),
  serve(BoomRpc, () => ({
    execute: () => {
      throw new Error('secret internals at /srv/app/boom.ts:12:3');
    },
  })),
];
