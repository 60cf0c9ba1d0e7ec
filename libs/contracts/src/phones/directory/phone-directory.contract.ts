import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (no HTTP route): the read path of the phones table for the services that need to know an
 * organization's phones (the gateway's x-phone, the chats service's phone choice, the queue's purge
 * check). The phones service owns the table and answers; readers cache as they see fit
 * (docs/decisions.md, "Data ownership"). Deleted phones are never listed.
 */
export const PhoneDirectoryEntry = z.object({
  phone_id: z.string(),
  org_phone: z.string().nullable(),
  wa_state: z.string(),
  created_at: z.string(),
  /** `baileys`, `sandbox` or `cloud_api` (the queue paces a phone by it); absent from stand-ins that do not say. */
  connector: z.string().optional(),
});
export type PhoneDirectoryEntry = z.infer<typeof PhoneDirectoryEntry>;

export const PhoneDirectoryRpc = defineRpc({
  subject: 'phones.v1.directory',
  service: 'phones',
  request: z.object({
    org_id: z.uuid(),
    /** Only these phones (a token's scope, or one phone); null or absent: every phone of the organization. */
    phone_ids: z.array(z.string()).nullable().optional(),
    /** Only the phones with this number (`<digits>@c.us`). */
    org_phone: z.string().optional(),
    /** Only connected phones that have a number. */
    connected: z.boolean().default(false),
  }),
  /** Oldest first (created_at, then phone_id): "the first phone" is the same for every reader. */
  response: z.array(PhoneDirectoryEntry),
});
export type PhoneDirectoryRequest = z.infer<typeof PhoneDirectoryRpc.request>;

/** How a service reads the directory: the RPC, or a stand-in answering the same in its specs. */
export type PhoneDirectory = (request: PhoneDirectoryRequest) => Promise<PhoneDirectoryEntry[]>;
