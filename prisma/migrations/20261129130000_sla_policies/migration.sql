-- Issue 34 item 2: business hours, SLA policies and their durable timers (analytics service;
-- docs/services/analytics.md "Business hours and SLA policies", docs/decisions/0084). Expand-only: new tables.
CREATE TABLE "analytics_business_hours" (
    "org_id" UUID NOT NULL,
    "time_zone" TEXT NOT NULL,
    "weekly" JSONB NOT NULL,
    "holidays" TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_business_hours_pkey" PRIMARY KEY ("org_id")
);

CREATE TABLE "analytics_sla_policies" (
    "policy_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "minutes" INTEGER NOT NULL,
    "label_id" TEXT,
    "phone_id" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_sla_policies_pkey" PRIMARY KEY ("policy_id")
);
CREATE INDEX "analytics_sla_policies_org_id_created_at_idx" ON "analytics_sla_policies"("org_id", "created_at");

CREATE TABLE "analytics_sla_timers" (
    "timer_id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "policy_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "business_hours" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "answered_at" TIMESTAMPTZ(3),
    "fired_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "analytics_sla_timers_pkey" PRIMARY KEY ("timer_id"),
    CONSTRAINT "analytics_sla_timers_policy_id_fkey" FOREIGN KEY ("policy_id") REFERENCES "analytics_sla_policies"("policy_id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "analytics_sla_timers_org_id_phone_id_chat_id_idx" ON "analytics_sla_timers"("org_id", "phone_id", "chat_id");
-- one open wait per policy and chat copy (pending, or breached and not answered yet)
CREATE UNIQUE INDEX "analytics_sla_timers_open_key" ON "analytics_sla_timers"("policy_id", "phone_id", "chat_id") WHERE "answered_at" IS NULL;
-- the poller's claim: pending timers by due time
CREATE INDEX "analytics_sla_timers_due_idx" ON "analytics_sla_timers"("due_at") WHERE "state" = 'pending';

CREATE TABLE "analytics_sla_chats" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "last_out_at" TIMESTAMPTZ(3),
    CONSTRAINT "analytics_sla_chats_pkey" PRIMARY KEY ("org_id", "phone_id", "chat_id")
);

CREATE TABLE "analytics_sla_chat_labels" (
    "org_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "label_ids" TEXT[],
    "version" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_sla_chat_labels_pkey" PRIMARY KEY ("org_id", "chat_id")
);
