-- pgvector (the test scripts and docker compose provide it)
CREATE EXTENSION IF NOT EXISTS vector;

-- CreateTable
CREATE TABLE "knowledge_base_entries" (
    "context_id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "embedding" vector(384),
    "embedding_model" TEXT,
    "content_version" INTEGER NOT NULL DEFAULT 1,
    "attachments" JSONB,
    "avg_rating" DOUBLE PRECISION,
    "document_id" UUID,
    "is_active" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB,
    "tags" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3),

    CONSTRAINT "knowledge_base_entries_pkey" PRIMARY KEY ("context_id")
);

-- CreateIndex
CREATE INDEX "knowledge_base_entries_org_id_type_created_at_idx" ON "knowledge_base_entries"("org_id", "type", "created_at" DESC);

-- CreateIndex
CREATE INDEX "knowledge_base_entries_org_id_document_id_idx" ON "knowledge_base_entries"("org_id", "document_id");

-- CreateIndex (not expressible in Prisma 7: no HNSW index type)
CREATE INDEX "knowledge_base_entries_embedding_hnsw_idx" ON "knowledge_base_entries" USING hnsw ("embedding" vector_cosine_ops);
