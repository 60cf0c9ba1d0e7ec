-- GET /chats, GET /chats/{chat_id}, POST /chats/{chat_id}/read and GET /chats/messages (issue 16).
-- Expand only: new columns and indexes, nothing dropped or renamed.
--
-- A chat's listing state is kept on its row by ingestion (one statement per batch) rather than
-- computed from messages per request: ordering 50,000 chats by their newest message must not read
-- the messages table.
ALTER TABLE "chats" ADD COLUMN "org_phone" TEXT,
  ADD COLUMN "latest_message_id" BIGINT,
  ADD COLUMN "latest_message_at" TIMESTAMPTZ(3),
  ADD COLUMN "unread_count" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Backfill: the newest stored message of each phone's copy (unread counts start at 0: what was read
-- before this release is not known).
UPDATE "chats" SET "activity_at" = "created_at";
UPDATE "chats" c SET "org_phone" = m."org_phone", "latest_message_id" = m."id",
  "latest_message_at" = m."timestamp", "activity_at" = m."timestamp"
FROM (
  SELECT DISTINCT ON ("phone_id", "chat_id") "phone_id", "chat_id", "id", "timestamp", "org_phone"
  FROM "messages" ORDER BY "phone_id", "chat_id", "timestamp" DESC, "id" DESC
) m
WHERE c."phone_id" = m."phone_id" AND c."chat_id" = m."chat_id";
-- Chats without a message take their phone's number once, here (a migration, not service code:
-- from now on ingestion writes org_phone with the chat).
UPDATE "chats" c SET "org_phone" = p."org_phone" FROM "phones" p
WHERE c."org_phone" IS NULL AND p."phone_id" = c."phone_id";

-- GET /chats: an organization's chats by latest activity, read in order from the index.
CREATE INDEX "chats_org_id_activity_at_chat_id_idx" ON "chats" ("org_id", "activity_at" DESC, "chat_id" DESC);

-- GET /chats/messages: an organization's messages newest first; phone filters read from the leaves.
CREATE INDEX "messages_org_recent_idx" ON "messages" ("org_id", "timestamp" DESC, "id" DESC) INCLUDE ("phone_id");
