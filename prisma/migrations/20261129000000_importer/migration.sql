-- Issue 31: the importer's bookkeeping (runs with checkpoint and report, ids it could not keep,
-- records that failed). Expand-only: new tables, read and written by the importer service alone.
CREATE TABLE "import_runs" (
    "import_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "source_url" TEXT NOT NULL,
    "source_org" TEXT,
    "dry_run" BOOLEAN NOT NULL DEFAULT false,
    "options" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "checkpoint" JSONB NOT NULL DEFAULT '{}',
    "report" JSONB NOT NULL DEFAULT '{}',
    "error" JSONB,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "import_runs_pkey" PRIMARY KEY ("import_id")
);
CREATE INDEX "import_runs_org_id_created_at_idx" ON "import_runs"("org_id", "created_at" DESC);

CREATE TABLE "import_id_map" (
    "org_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "import_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "import_id_map_pkey" PRIMARY KEY ("org_id","source","resource","source_id")
);

CREATE TABLE "import_failures" (
    "import_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "resource" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "import_failures_pkey" PRIMARY KEY ("import_id","resource","source_id")
);
CREATE INDEX "import_failures_org_id_idx" ON "import_failures"("org_id");

CREATE TABLE "import_chat_marks" (
    "org_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "latest_ms" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "import_chat_marks_pkey" PRIMARY KEY ("org_id","source","chat_id")
);
