-- Issue 34 (docs/services/analytics.md, "Response times"): response samples in business hours, and next responses.
-- business_ms: the sample in the organization's business hours as they were when it was written (null: no schedule then;
-- samples written before this migration have none: a rebuild of their period computes them with today's schedule).
ALTER TABLE "analytics_responses" ADD COLUMN "business_ms" BIGINT;

-- is_next: a response in a chat copy already answered before (an outgoing message precedes the incoming one).
ALTER TABLE "analytics_responses" ADD COLUMN "is_next" BOOLEAN NOT NULL DEFAULT false;

-- The samples already stored: next when the chat copy has an outgoing message before the incoming one, as the
-- ingestion decides from now on (analytics_messages_org_id_phone_id_chat_id_at_message_id_idx finds it).
UPDATE "analytics_responses" r SET "is_next" = true
WHERE EXISTS (
  SELECT 1 FROM "analytics_messages" m
  WHERE m."org_id" = r."org_id" AND m."phone_id" = r."phone_id" AND m."chat_id" = r."chat_id" AND m."from_me"
    AND (m."at", m."message_id") < (r."incoming_at", r."incoming_message_id")
);
