-- Run retention (issue 19): the sweeper deletes finished runs (and their steps) older than
-- AUTOMATION_RUN_RETENTION_MS, oldest first, in batches; this partial index is what it walks, so a
-- sweep reads only what it deletes whatever the table's size. Expand-only.
CREATE INDEX IF NOT EXISTS "automation_runs_finished_idx" ON "automation_runs" ("finished_at") WHERE "status" <> 'running';
