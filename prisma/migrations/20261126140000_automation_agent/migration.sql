-- The AI agent's per-phone switch (issue 19). A new table only (expand-only).
CREATE TABLE "automation_agent_switches" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "automation_agent_switches_pkey" PRIMARY KEY ("org_id","phone_id")
);
