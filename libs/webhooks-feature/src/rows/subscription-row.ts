import type { Prisma } from '@mapi/db';

/** A stored subscription, as `webhook_subscriptions` holds it (its secrets included). */
export type SubscriptionRow = Prisma.WebhookSubscriptionModel;
