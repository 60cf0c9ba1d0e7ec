-- Issue 34 (second slice): the analytics service's per-ticket state, fed from the ticket.* events
-- (docs/services/analytics.md, "Ticket metrics"). Expand-only: a new table.
CREATE TABLE "analytics_tickets" (
    "org_id" UUID NOT NULL,
    "ticket_id" TEXT NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "assignee" TEXT,
    "is_deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "first_assigned_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "closed_by" TEXT,
    "version" TIMESTAMPTZ(3) NOT NULL,
    "event_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "analytics_tickets_pkey" PRIMARY KEY ("org_id", "ticket_id")
);
CREATE INDEX "analytics_tickets_org_id_created_at_idx" ON "analytics_tickets"("org_id", "created_at");
CREATE INDEX "analytics_tickets_org_id_closed_at_idx" ON "analytics_tickets"("org_id", "closed_at");

-- Team figures: who sent a counted message (the message's performed_by, as its event carried it).
ALTER TABLE "analytics_messages" ADD COLUMN "performed_by" TEXT;
