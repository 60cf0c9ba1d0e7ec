import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';

/** One entry of the audit trail, written by another process (the gateway after an audited route). */
export const RecordAuditBody = z.object({
  org_id: z.uuid(),
  actor_type: z.enum(['member', 'token', 'operator']),
  actor_id: z.string().max(200).nullable(),
  actor_email: z.string().max(254).nullable(),
  action: z.string().min(1).max(100),
  target: z.string().max(254).nullable(),
  details: z.record(z.string(), z.unknown()).default({}),
});
export type RecordAuditBody = z.infer<typeof RecordAuditBody>;

/** Internal: no HTTP route. */
export const RecordAuditRpc = defineRpc({
  subject: 'members.v1.audit.record',
  service: 'members',
  request: z.object({ body: RecordAuditBody }),
  response: z.object({ audit_id: z.string() }),
});
export type RecordAuditRequest = z.infer<typeof RecordAuditRpc.request>;
