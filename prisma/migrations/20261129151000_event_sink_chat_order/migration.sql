-- Issue 36: per-chat order for event sinks that ask for it (transport_config.orderByChat; decision 0087).
-- Expand-only: a nullable column (filled by the intake for those sinks only) and a partial index the claim probes.
ALTER TABLE "webhook_deliveries" ADD COLUMN "chat_id" TEXT;

-- CreateIndex (SQL-only: partial) unsettled ordered deliveries of one subscription and chat, oldest first.
CREATE INDEX "webhook_deliveries_unsettled_by_chat_idx" ON "webhook_deliveries"("subscription_id", "chat_id", "id")
    WHERE "next_attempt_at" IS NOT NULL AND "chat_id" IS NOT NULL;
