-- Issue 34 item 3: flag rules, their durable flag / unflag jobs, and what the flagging intake knows of flags and
-- replies (analytics service; docs/services/analytics.md "Flagging", docs/decisions/0089). Expand-only: new tables.
CREATE TABLE "analytics_flag_rules" (
    "rule_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "keywords" TEXT[],
    "label_id" TEXT,
    "minutes" INTEGER,
    "prompt" TEXT,
    "phone_id" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_flag_rules_pkey" PRIMARY KEY ("rule_id")
);
CREATE INDEX "analytics_flag_rules_org_id_created_at_idx" ON "analytics_flag_rules"("org_id", "created_at");

CREATE TABLE "analytics_flag_jobs" (
    "job_id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "rule_id" UUID,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "message_at" TIMESTAMPTZ(3) NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "response_id" TEXT,
    "response_at" TIMESTAMPTZ(3),
    "state" TEXT NOT NULL DEFAULT 'pending',
    "lease_until" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "outcome" TEXT,
    "reason" TEXT,
    "body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),
    CONSTRAINT "analytics_flag_jobs_pkey" PRIMARY KEY ("job_id")
);
CREATE INDEX "analytics_flag_jobs_org_id_chat_id_idx" ON "analytics_flag_jobs"("org_id", "chat_id");
-- the worker's claim: pending jobs by due time
CREATE INDEX "analytics_flag_jobs_due_idx" ON "analytics_flag_jobs"("due_at") WHERE "state" = 'pending';
-- a redelivered or replayed event arms nothing twice
CREATE UNIQUE INDEX "analytics_flag_jobs_flag_key" ON "analytics_flag_jobs"("rule_id", "message_id") WHERE "action" = 'flag';
CREATE UNIQUE INDEX "analytics_flag_jobs_unflag_key" ON "analytics_flag_jobs"("org_id", "message_id", "response_id") WHERE "action" = 'unflag';

CREATE TABLE "analytics_flag_marks" (
    "org_id" UUID NOT NULL,
    "message_id" TEXT NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "message_at" TIMESTAMPTZ(3) NOT NULL,
    "flagged" BOOLEAN NOT NULL,
    "flagged_at" TIMESTAMPTZ(3),
    "version" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_flag_marks_pkey" PRIMARY KEY ("org_id", "message_id")
);
CREATE INDEX "analytics_flag_marks_org_id_chat_id_idx" ON "analytics_flag_marks"("org_id", "chat_id");

CREATE TABLE "analytics_flag_chats" (
    "org_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "last_out_at" TIMESTAMPTZ(3) NOT NULL,
    "last_out_id" TEXT NOT NULL,
    "last_out_phone" TEXT NOT NULL,
    CONSTRAINT "analytics_flag_chats_pkey" PRIMARY KEY ("org_id", "chat_id")
);
