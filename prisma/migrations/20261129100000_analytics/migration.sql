-- Issue 34 (first slice): the analytics service's tables, fed from the events stream
-- (docs/services/analytics.md, docs/decisions/0080). Expand-only: new tables.
CREATE TABLE "analytics_messages" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "flag_version" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_messages_pkey" PRIMARY KEY ("org_id", "phone_id", "message_id")
);
CREATE INDEX "analytics_messages_org_id_phone_id_chat_id_at_message_id_idx" ON "analytics_messages"("org_id", "phone_id", "chat_id", "at", "message_id");
CREATE INDEX "analytics_messages_org_id_at_idx" ON "analytics_messages"("org_id", "at");

CREATE TABLE "analytics_message_slots" (
    "org_id" UUID NOT NULL,
    "slot" TIMESTAMPTZ(3) NOT NULL,
    "phone_id" TEXT NOT NULL,
    "incoming" INTEGER NOT NULL DEFAULT 0,
    "outgoing" INTEGER NOT NULL DEFAULT 0,
    "flagged" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "analytics_message_slots_pkey" PRIMARY KEY ("org_id", "slot", "phone_id")
);

CREATE TABLE "analytics_chat_slots" (
    "org_id" UUID NOT NULL,
    "slot" TIMESTAMPTZ(3) NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "incoming" INTEGER NOT NULL DEFAULT 0,
    "outgoing" INTEGER NOT NULL DEFAULT 0,
    "flagged" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "analytics_chat_slots_pkey" PRIMARY KEY ("org_id", "slot", "phone_id", "chat_id")
);

CREATE TABLE "analytics_responses" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "incoming_message_id" TEXT NOT NULL,
    "incoming_at" TIMESTAMPTZ(3) NOT NULL,
    "response_message_id" TEXT NOT NULL,
    "response_at" TIMESTAMPTZ(3) NOT NULL,
    "response_ms" BIGINT NOT NULL,
    CONSTRAINT "analytics_responses_pkey" PRIMARY KEY ("org_id", "phone_id", "chat_id", "incoming_message_id")
);
CREATE INDEX "analytics_responses_org_id_incoming_at_idx" ON "analytics_responses"("org_id", "incoming_at");

CREATE TABLE "analytics_chat_states" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "waiting_since" TIMESTAMPTZ(3),
    "waiting_message_id" TEXT,
    "last_outgoing_at" TIMESTAMPTZ(3),
    "last_message_at" TIMESTAMPTZ(3),
    "flagged_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "analytics_chat_states_pkey" PRIMARY KEY ("org_id", "phone_id", "chat_id")
);
CREATE INDEX "analytics_chat_states_org_id_waiting_since_idx" ON "analytics_chat_states"("org_id", "waiting_since");
