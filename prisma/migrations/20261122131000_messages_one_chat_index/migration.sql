-- One index for a chat's messages instead of two: the per-organization one carries phone_id in its
-- leaves, so pages filtered by phone (x-phone, a token's phone scope) are still read from the index
-- alone, and ingestion maintains one index fewer per message inserted.
CREATE INDEX "messages_org_chat_recent_idx" ON "messages" ("org_id", "chat_id", "timestamp" DESC, "id" DESC) INCLUDE ("phone_id");

-- DropIndex
DROP INDEX "messages_org_id_chat_id_timestamp_id_idx";

-- DropIndex
DROP INDEX "messages_phone_id_chat_id_timestamp_id_idx";
