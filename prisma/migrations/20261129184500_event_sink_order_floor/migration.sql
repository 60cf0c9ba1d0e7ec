-- Issue 36, decision 0087: a chat's order (orderByChat) by the events' outbox seq, behind the intake's floor.
-- Delivery ids are the order in which the intake scheduled events, which is not their order: a batch that
-- JetStream redelivers (a dispatcher killed before its ack, a failed batch nak'ed) is scheduled after
-- later events, and replicas schedule concurrently. Expand-only: rows scheduled before this migration have
-- no chat_seq and are unordered.
ALTER TABLE "webhook_deliveries" ADD COLUMN "chat_seq" BIGINT;

-- The claim's probe: unsettled ordered deliveries of one subscription and chat, by outbox seq (same name, new key).
DROP INDEX IF EXISTS "webhook_deliveries_unsettled_by_chat_idx";
CREATE INDEX "webhook_deliveries_unsettled_by_chat_idx" ON "webhook_deliveries"("subscription_id", "chat_id", "chat_seq")
    WHERE "next_attempt_at" IS NOT NULL AND "chat_seq" IS NOT NULL;

-- CreateTable: every event with an outbox seq at or below outbox_seq has been scheduled (raised by the intake).
CREATE TABLE "webhook_order_floor" (
    "name" TEXT NOT NULL,
    "outbox_seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_order_floor_pkey" PRIMARY KEY ("name")
);
INSERT INTO "webhook_order_floor" ("name", "outbox_seq") VALUES ('events', 0);
