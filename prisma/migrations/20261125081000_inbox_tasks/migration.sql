-- The inbox service's tasks (issue 17 item 4). A new table only (expand-only).
CREATE TABLE "inbox_tasks" (
    "task_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "phone_id" TEXT,
    "type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "notes" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "priority" INTEGER NOT NULL DEFAULT 1,
    "assignee" TEXT,
    "due_date" TIMESTAMPTZ(3),
    "remind_at" TIMESTAMPTZ(3),
    "reminder_fired_at" TIMESTAMPTZ(3),
    "reminder_setting" JSONB,
    "chat_id" TEXT,
    "message_id" TEXT,
    "ticket_id" UUID,
    "associated_object_metadata" JSONB,
    "completed_at" TIMESTAMPTZ(3),
    "completed_by" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_updated_by" TEXT NOT NULL,
    "last_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_tasks_pkey" PRIMARY KEY ("task_id")
);

CREATE INDEX "inbox_tasks_org_id_created_at_task_id_idx" ON "inbox_tasks"("org_id", "created_at" DESC, "task_id" DESC);
CREATE INDEX "inbox_tasks_org_id_chat_id_idx" ON "inbox_tasks"("org_id", "chat_id");
CREATE INDEX "inbox_tasks_org_id_ticket_id_idx" ON "inbox_tasks"("org_id", "ticket_id");
CREATE INDEX "inbox_tasks_org_id_assignee_status_idx" ON "inbox_tasks"("org_id", "assignee", "status");

-- (not expressible in Prisma: a partial index) The reminder poller's claim and its next-due read: only
-- pending reminders are indexed, so the index holds what is still to fire and stays small.
CREATE INDEX "inbox_tasks_reminders_due_idx" ON "inbox_tasks" ("remind_at")
  WHERE "remind_at" IS NOT NULL AND "reminder_fired_at" IS NULL AND "status" <> 'closed';
