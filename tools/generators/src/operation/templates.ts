/** What the templates of an operation are made from (see operationNames). */
export interface OperationNames {
  service: string;
  /** The folder of libs/contracts/src with the service's contracts (and the subjects' first word). */
  contracts: string;
  name: string;
  /** `ArchiveNote`: the use case's class and the prefix of the contract's exports. */
  type: string;
  operationId: string;
  method: string;
  path: string;
  pathParams: string[];
  hasBody: boolean;
  subject: string;
  phone: string;
  tag: string;
  summary: string;
}

const q = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function contractFile(n: OperationNames): string {
  const params = n.pathParams.length > 0;
  const request = ['ctx: RequestContextSchema', params && `params: ${n.type}Params`, n.hasBody && `body: ${n.type}Body`]
    .filter(Boolean)
    .join(', ');
  return `import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
${
  params
    ? `
/** The path parameters of ${n.method} ${n.path}. */
export const ${n.type}Params = z.object({
${n.pathParams.map((p) => `  ${p}: z.string().min(1, '${p} must not be empty').max(200, '${p} is too long'),`).join('\n')}
});
`
    : ''
}${
    n.hasBody
      ? `
/** The request body; a field it does not name is refused (400 with the field in the envelope). */
export const ${n.type}Body = z.strictObject({});
export type ${n.type}Body = z.infer<typeof ${n.type}Body>;
`
      : ''
  }
/** What ${n.method} ${n.path} answers. */
export const ${n.type}ResultSchema = z.object({ org_id: z.uuid() });
export type ${n.type}Result = z.infer<typeof ${n.type}ResultSchema>;

export const ${n.type}Rpc = defineRpc({
  subject: ${q(n.subject)},
  service: ${q(n.service)},
  request: z.object({ ${request} }),
  response: ${n.type}ResultSchema,
});
export type ${n.type}Request = z.infer<typeof ${n.type}Rpc.request>;

export const ${n.type}Route = defineRoute({
  operationId: ${q(n.operationId)},
  method: ${q(n.method)},
  path: ${q(n.path)},
  tag: ${q(n.tag)},
  summary: ${q(n.summary)},${params ? `\n  params: ${n.type}Params,` : ''}${n.hasBody ? `\n  body: ${n.type}Body,` : ''}
  phone: ${q(n.phone)},
  rpc: ${n.type}Rpc,
  successStatus: 200,
  response: ${n.type}ResultSchema,
});
`;
}

export function useCaseFile(n: OperationNames): string {
  return `import type { ${n.type}Request, ${n.type}Result } from '@mapi/contracts';

/**
 * ${n.method} ${n.path}: ${n.summary}. Every query is scoped by ctx.org_id (and by the phones of
 * ctx.phone_scope where phones matter), so another organization's ids answer 404.
 */
export class ${n.type} {
  async execute({ ctx }: ${n.type}Request): Promise<${n.type}Result> {
    return { org_id: ctx.org_id };
  }
}
`;
}

export function specFile(n: OperationNames): string {
  const input = ['ctx', n.pathParams.length && `params: { ${n.pathParams.map((p) => `${p}: 'id-1'`).join(', ')} }`, n.hasBody && 'body: {}']
    .filter(Boolean)
    .join(', ');
  return `import { ${n.type}Rpc } from '@mapi/contracts';
import { ${n.type} } from './${n.name}.usecase';

const ctx = { org_id: '00000000-0000-4000-8000-000000000001', token_id: '00000000-0000-4000-8000-000000000002', phone_scope: null, phone: null };

describe('${n.type}', () => {
  it('answers what its contract promises', async () => {
    const request = ${n.type}Rpc.request.parse({ ${input} });
    const answer = await new ${n.type}().execute(request);
    expect(${n.type}Rpc.response.parse(answer)).toEqual(answer);
    expect(answer.org_id).toBe(ctx.org_id);
  });

  it('refuses a request its contract does not allow', () => {
    expect(${n.type}Rpc.request.safeParse({ ${input.replace('ctx', "ctx: { ...ctx, org_id: 'not-a-uuid' }")} }).success).toBe(false);
  });
});
`;
}
