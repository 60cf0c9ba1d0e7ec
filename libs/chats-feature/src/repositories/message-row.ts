import type { Prisma } from '@mapi/db';

/** A stored message without its surrogate key (which never leaves the service). */
export type MessageRow = Omit<Prisma.MessageModel, 'id' | 'phone_id'>;
