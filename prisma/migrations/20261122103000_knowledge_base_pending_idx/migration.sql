-- CreateIndex (not expressible in Prisma 7: a partial index on an expression)
-- The lost-embedding-job sweep reads entries still waiting for their vector, by the time of their last
-- text change; only pending rows are indexed, so the index stays small.
CREATE INDEX "knowledge_base_entries_pending_idx" ON "knowledge_base_entries" ((COALESCE("updated_at", "created_at"))) WHERE "embedding" IS NULL;
