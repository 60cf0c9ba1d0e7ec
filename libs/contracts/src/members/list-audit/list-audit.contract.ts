import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const AuditEntrySchema = z.object({
  audit_id: z.string(),
  org_id: z.string(),
  /** member (a console session), token (a bearer token) or operator (the admin CLI). */
  actor_type: z.enum(['member', 'token', 'operator']),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const ListAuditQuery = z.object({
  offset: z.coerce
    .number({ error: 'offset must be a whole number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(500, 'limit should be less than or equal to 500')
    .default(100),
});

export const ListAuditResponse = z.object({ entries: z.array(AuditEntrySchema), count: z.number().int() });

export const ListAuditRpc = defineRpc({
  subject: 'members.v1.audit.list',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, query: ListAuditQuery }),
  response: ListAuditResponse,
});
export type ListAuditRequest = z.infer<typeof ListAuditRpc.request>;

export const ListAuditRoute = defineRoute({
  operationId: 'listAuditTrail',
  method: 'GET',
  path: '/members/audit',
  tag: 'members',
  summary: "The organization's audit trail",
  description:
    'Who invited, removed or changed the access of a member, accepted an invitation, created or revoked a token, deleted a phone ' +
    'or purged a queue, newest first. Owners and admins only (403 for a member).',
  query: ListAuditQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListAuditRpc,
  successStatus: 200,
  response: ListAuditResponse,
});
