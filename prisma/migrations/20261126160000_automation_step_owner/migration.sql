-- Issue 19 (delays aim): a claimed step names its executor, whose liveness is a session advisory lock, so
-- a killed executor's claims are taken over at once instead of after the lease. Expand-only.
ALTER TABLE "automation_steps" ADD COLUMN "claimed_by" UUID;
CREATE INDEX "automation_steps_claimed_idx" ON "automation_steps" ("claimed_by") WHERE "status" = 'pending' AND "claimed_by" IS NOT NULL;
