-- Update events carry the attributes they replaced (the webhook envelope's previous_attributes).
-- Nullable, so rows written by the previous release's writers stay valid and publish with null.
ALTER TABLE "outbox_events" ADD COLUMN "previous_attributes" JSONB;
