-- Message actions on the sandbox network: forwarded and deleted copies, and the changes (edits,
-- deletions, reactions) still to report to a phone. Expand-only.
ALTER TABLE "sandbox_messages" ADD COLUMN "is_forwarded" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "sandbox_messages" ADD COLUMN "is_deleted" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "sandbox_changes" (
    "id" BIGSERIAL NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "unique_id" TEXT NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "change" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_changes_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "sandbox_changes_phone_id_id_idx" ON "sandbox_changes"("phone_id", "id");
