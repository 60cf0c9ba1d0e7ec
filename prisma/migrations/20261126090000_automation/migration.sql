-- The automation service's workflows, runs and steps (issue 19). New tables only (expand-only).
CREATE TABLE "automation_workflows" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "trigger_metadata" JSONB NOT NULL,
    "actions" JSONB NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "automation_workflows_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "automation_runs" (
    "run_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "phone_id" TEXT,
    "chat_id" TEXT,
    "event" JSONB NOT NULL,
    "definition" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "automation_runs_pkey" PRIMARY KEY ("run_id")
);

CREATE TABLE "automation_steps" (
    "step_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "action_id" TEXT NOT NULL,
    "action_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "automation_steps_pkey" PRIMARY KEY ("step_id")
);

CREATE INDEX "automation_workflows_org_id_created_at_id_idx" ON "automation_workflows"("org_id", "created_at" DESC, "id" DESC);
CREATE INDEX "automation_workflows_org_id_trigger_idx" ON "automation_workflows"("org_id", "trigger");
CREATE UNIQUE INDEX "automation_runs_workflow_id_event_id_key" ON "automation_runs"("workflow_id", "event_id");
CREATE INDEX "automation_runs_org_id_workflow_id_started_at_run_id_idx" ON "automation_runs"("org_id", "workflow_id", "started_at" DESC, "run_id" DESC);
CREATE INDEX "automation_runs_org_id_started_at_idx" ON "automation_runs"("org_id", "started_at");
CREATE INDEX "automation_runs_workflow_id_chat_id_started_at_idx" ON "automation_runs"("workflow_id", "chat_id", "started_at");
CREATE UNIQUE INDEX "automation_steps_run_id_action_id_key" ON "automation_steps"("run_id", "action_id");

-- (not expressible in Prisma: a partial index) The executor's claim and its next-due read: only
-- pending steps are indexed, so the index holds what is still to run and stays small.
CREATE INDEX "automation_steps_due_idx" ON "automation_steps" ("due_at") WHERE "status" = 'pending';
