-- Repeating task reminders (issue 17): the series' first occurrence and the index of remind_at in it, so
-- the next occurrence is computed from the start (a monthly reminder on the 31st stays on month ends).
-- Expand-only.
ALTER TABLE "inbox_tasks" ADD COLUMN "reminder_series_at" TIMESTAMPTZ(3);
ALTER TABLE "inbox_tasks" ADD COLUMN "reminder_index" INTEGER NOT NULL DEFAULT 0;
