import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ImportIdParams } from '../import/import.schema';

export const CutoverResponse = z.object({
  /** Switched on by this call, per resource (webhooks, workflows). */
  switched_on: z.record(z.string(), z.number().int()),
  /** Those that could not be switched on (deleted here since, refused), with why. */
  failed: z.array(z.object({ resource: z.string(), id: z.string(), reason: z.string() })),
});
export type CutoverResponse = z.infer<typeof CutoverResponse>;

export const CutoverRpc = defineRpc({
  subject: 'imports.v1.cutover',
  service: 'importer',
  request: z.object({ ctx: RequestContextSchema, params: ImportIdParams }),
  response: CutoverResponse,
});
export type CutoverRequest = z.infer<typeof CutoverRpc.request>;

export const CutoverRoute = defineRoute({
  operationId: 'cutoverImport',
  method: 'POST',
  path: '/imports/{import_id}/cutover',
  tag: 'imports',
  summary: 'Switch on what an import brought switched off',
  description:
    "The move's last step: switches on the webhooks and workflows that this import's source had on (they come over off, so nothing " +
    'is delivered or run twice while both systems run), through the same rules as PATCH /webhooks/{id} and /workflows/{workflow_id}. ' +
    'Safe to repeat: what is already switched on is left. Owners only.',
  params: ImportIdParams,
  phone: 'none',
  role: 'owner',
  rpc: CutoverRpc,
  successStatus: 200,
  response: CutoverResponse,
});
