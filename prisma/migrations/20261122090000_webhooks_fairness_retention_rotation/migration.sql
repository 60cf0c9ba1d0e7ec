-- Webhooks: per-endpoint limits across replicas, retention sweep, secret rotation overlap.

-- AlterTable: the previous secret still signs (beside the new one) until previous_secret_expires_at.
ALTER TABLE "webhook_subscriptions" ADD COLUMN     "previous_secret" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3);

-- AlterTable: set while a worker holds the delivery (its claim lease); counts as in flight until then.
ALTER TABLE "webhook_deliveries" ADD COLUMN     "leased_until" TIMESTAMPTZ(3);

-- CreateTable: the per-endpoint token bucket, updated by the claim (shared by every replica).
CREATE TABLE "webhook_endpoint_buckets" (
    "endpoint" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "refilled_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoint_buckets_pkey" PRIMARY KEY ("endpoint")
);

-- DropIndex: replaced by the per-endpoint partial index below (the claim walks endpoints).
DROP INDEX "webhook_deliveries_next_attempt_at_idx";

-- CreateIndex (SQL-only: partial) unsettled deliveries by endpoint, then due time.
CREATE INDEX "webhook_deliveries_due_by_endpoint_idx" ON "webhook_deliveries"("endpoint", "next_attempt_at") WHERE "next_attempt_at" IS NOT NULL;

-- CreateIndex (SQL-only: partial) deliveries held by a worker, counted per endpoint by the claim.
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries"("endpoint", "leased_until") WHERE "leased_until" IS NOT NULL;

-- CreateIndex (SQL-only: BRIN) for the retention sweep; rows are written in time order.
CREATE INDEX "webhook_attempts_attempted_at_brin" ON "webhook_attempts" USING brin ("attempted_at");
CREATE INDEX "webhook_events_received_at_brin" ON "webhook_events" USING brin ("received_at");
CREATE INDEX "webhook_deliveries_created_at_brin" ON "webhook_deliveries" USING brin ("created_at");
