-- Issue 32: the send queues' record in Postgres, so that a Redis that comes back empty loses no
-- accepted send (docs/decisions/0077). Expand-only: new tables.
CREATE TABLE "send_jobs" (
    "phone_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "broadcast_id" TEXT,
    "data" JSONB NOT NULL,
    "not_before" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "purged_at" TIMESTAMPTZ(3),
    CONSTRAINT "send_jobs_pkey" PRIMARY KEY ("phone_id", "job_id")
);
CREATE INDEX "send_jobs_phone_id_broadcast_id_idx" ON "send_jobs"("phone_id", "broadcast_id");
CREATE INDEX "send_jobs_created_at_idx" ON "send_jobs"("created_at");

CREATE TABLE "send_purges" (
    "phone_id" TEXT NOT NULL,
    "purged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "send_purges_pkey" PRIMARY KEY ("phone_id", "purged_at")
);
