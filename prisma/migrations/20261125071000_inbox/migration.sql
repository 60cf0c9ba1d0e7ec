-- The team inbox service's tables (issue 17): tickets and private notes on chats. New tables only (expand-only).
CREATE TABLE "inbox_tickets" (
    "ticket_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "priority" INTEGER NOT NULL DEFAULT 1,
    "assignee" TEXT,
    "assigned_by" TEXT,
    "first_assigned_at" TIMESTAMPTZ(3),
    "raised_by" TEXT,
    "quoted_message_id" TEXT,
    "attached_message_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "due_date" TIMESTAMPTZ(3),
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "closed_at" TIMESTAMPTZ(3),
    "closed_by" TEXT,
    "is_deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_updated_by" TEXT,

    CONSTRAINT "inbox_tickets_pkey" PRIMARY KEY ("ticket_id")
);

CREATE INDEX "inbox_tickets_org_id_created_at_ticket_id_idx" ON "inbox_tickets"("org_id", "created_at" DESC, "ticket_id" DESC);
CREATE INDEX "inbox_tickets_org_id_status_assignee_created_at_ticket_id_idx" ON "inbox_tickets"("org_id", "status", "assignee", "created_at" DESC, "ticket_id" DESC);
CREATE INDEX "inbox_tickets_org_id_chat_id_idx" ON "inbox_tickets"("org_id", "chat_id");

CREATE TABLE "inbox_notes" (
    "note_id" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "org_phone" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "quoted_message_id" TEXT,
    "performed_by" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_notes_pkey" PRIMARY KEY ("note_id")
);

CREATE INDEX "inbox_notes_org_id_timestamp_note_id_idx" ON "inbox_notes"("org_id", "timestamp" DESC, "note_id" DESC);
CREATE INDEX "inbox_notes_org_id_chat_id_timestamp_note_id_idx" ON "inbox_notes"("org_id", "chat_id", "timestamp" DESC, "note_id" DESC);
