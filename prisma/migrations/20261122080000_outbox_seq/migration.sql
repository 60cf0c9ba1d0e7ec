-- DropIndex
DROP INDEX "outbox_events_published_at_created_at_idx";

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "outbox_events_published_at_seq_idx" ON "outbox_events"("published_at", "seq");
