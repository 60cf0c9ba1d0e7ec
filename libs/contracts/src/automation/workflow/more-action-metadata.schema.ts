import { z } from 'zod';

/** Header names a workflow's notify_http may not set: the transport's own, and the signature's. */
export const RESERVED_HTTP_HEADERS = [
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'idempotency-key',
];
export const MAX_HTTP_BODY = 65_536;
export const MAX_FORWARD_TARGETS = 100;

const CHAT_ID = /^[0-9A-Za-z.\-_]+@(c|g)\.us$/;

const labels = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'a label must not be empty')
      .max(100, 'a label is at most 100 characters')
      .regex(/^[^,]*$/, 'a label must not contain a comma'),
    { error: 'labels must be an array of label names' },
  )
  .min(1, 'name at least one label')
  .max(100);

/** `{round_robin: false, email}` (email null: unassign); round robin is not run here. */
const assignee = z
  .object(
    {
      round_robin: z.literal(false, { error: 'round-robin assignment is not supported here yet' }),
      email: z.unknown().optional(),
    },
    { error: 'assignee must be {round_robin: false, email}' },
  )
  .superRefine((a, ctx) => {
    // a round-robin assignee has `emails`, not `email`: only the round robin is named then
    if (a.round_robin !== false) return;
    if (a.email === undefined) ctx.addIssue({ code: 'custom', path: ['email'], message: 'assignee.email is required (null to unassign)' });
    else if (a.email !== null && !z.email().safeParse(a.email).success)
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'assignee.email must be an email (or null to unassign)' });
  })
  .transform((a) => ({ round_robin: false as const, email: a.email as string | null }));

/** `a@c.us;b@g.us`: the chats a message is forwarded to. */
const forwardTargets = z
  .string({ error: "chat_id must name the chats to forward to, such as '14155550123@c.us;1203630@g.us'" })
  .refine(
    (v) =>
      v
        .split(';')
        .map((c) => c.trim())
        .every((c) => CHAT_ID.test(c)),
    "chat_id must be chat ids separated by ';', such as '14155550123@c.us;1203630@g.us'",
  )
  .refine((v) => v.split(';').length <= MAX_FORWARD_TARGETS, `chat_id names at most ${MAX_FORWARD_TARGETS} chats`);

const httpUrl = z
  .string({ error: 'url must be a string' })
  .max(2048, 'url is at most 2048 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'url must be an http(s) URL without credentials');

const httpHeaders = z
  .record(
    z
      .string()
      .min(1)
      .max(200)
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name must be a token'),
    z
      .string()
      .max(8192)
      .regex(/^[^\r\n]*$/, 'a header value must be one line'),
    { error: 'headers must be an object of header name to value' },
  )
  .superRefine((h, ctx) => {
    if (Object.keys(h).length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 headers' });
    for (const k of Object.keys(h))
      if (RESERVED_HTTP_HEADERS.includes(k.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: [k], message: `header ${k} is set by the service` });
  });

/**
 * The metadata of the action types added in issue 19's second slice (names and fields of
 * @periskope/types `WorkflowActionsTypeMap`), merged into ACTION_METADATA.
 */
export const MORE_ACTION_METADATA = {
  assign_ticket: z.object({ assignee }),
  assign_chat: z.object({ assignee }),
  add_ticket_label: z.object({ labels }),
  remove_ticket_label: z.object({ labels }),
  flag_message: z.object({}),
  unflag_message: z.object({}),
  forward_message: z.object({ chat_id: forwardTargets }),
  notify_http: z.object({
    url: httpUrl,
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE'], { error: 'method must be GET, POST, PUT or DELETE' }),
    headers: httpHeaders.optional(),
    body: z.string({ error: 'body must be a string' }).max(MAX_HTTP_BODY, `body is at most ${MAX_HTTP_BODY} characters`).optional(),
    /** Ours, optional: a secret (at least 24 characters) that signs each request (Standard Webhooks headers). */
    signing_secret: z.string().min(24, 'signing_secret must be at least 24 characters').max(200).optional(),
  }),
} as const;
