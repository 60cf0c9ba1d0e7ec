-- Issue 36: event sinks are webhook subscriptions with another transport (docs/decisions/0087).
-- Expand-only: three columns with defaults; every existing row stays an HTTP webhook.
ALTER TABLE "webhook_subscriptions"
    ADD COLUMN "transport" TEXT NOT NULL DEFAULT 'http',
    ADD COLUMN "transport_config" JSONB NOT NULL DEFAULT '{}',
    ADD COLUMN "credentials" BYTEA;
