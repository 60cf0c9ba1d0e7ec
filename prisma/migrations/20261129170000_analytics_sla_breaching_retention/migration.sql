-- Issue 34 (docs/services/analytics.md): partial indexes only, expand-only.
-- "Right now" lists the chats breaching an SLA (waits breached and not answered since), per organization.
CREATE INDEX "analytics_sla_timers_breaching_idx" ON "analytics_sla_timers"("org_id", "phone_id", "chat_id") WHERE "state" = 'breached' AND "answered_at" IS NULL;

-- The retention sweep (ANALYTICS_RETENTION_DAYS) deletes closed waits by when they were answered, and ended
-- flag jobs (done, failed, cancelled) by when they ended, oldest first, reading only what it deletes.
CREATE INDEX "analytics_sla_timers_closed_idx" ON "analytics_sla_timers"("answered_at") WHERE "answered_at" IS NOT NULL;

CREATE INDEX "analytics_flag_jobs_ended_idx" ON "analytics_flag_jobs"("done_at") WHERE "state" <> 'pending';
