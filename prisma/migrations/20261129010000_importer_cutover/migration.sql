-- Issue 31 (cut-over): webhooks and workflows are imported switched off; the id map keeps whether
-- the source had each one on, and when the cut-over switched it on here. Expand-only.
ALTER TABLE "import_id_map" ADD COLUMN "on_at_source" BOOLEAN;
ALTER TABLE "import_id_map" ADD COLUMN "switched_on_at" TIMESTAMPTZ(3);
