import type { Prisma } from '@mapi/db';

/** A stored message without its surrogate key (which never leaves the service). */
export type MessageRow = Omit<Prisma.MessageModel, 'id' | 'phone_id'>;

/** A stored row with the phone whose copy it is (MessageRow leaves phone_id out). */
export type PhoneMessageRow = MessageRow & { phone_id: string };
