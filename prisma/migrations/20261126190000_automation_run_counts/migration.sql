-- Issue 19 (intake aim): runs admitted per organization and second, so the per-organization limit sums
-- at most 60 small rows under the organization's lock instead of counting the last minute's runs.
-- Expand-only: replicas of the previous build keep counting runs; a new replica's window starts empty
-- (during a rolling deploy an organization may go over its limit for that first minute).
CREATE TABLE "automation_run_counts" (
    "org_id" UUID NOT NULL,
    "second" BIGINT NOT NULL,
    "runs" INTEGER NOT NULL,
    CONSTRAINT "automation_run_counts_pkey" PRIMARY KEY ("org_id","second")
);
