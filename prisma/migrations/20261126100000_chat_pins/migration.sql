-- Pins of messages in a chat, as the phone's network echoed them (ingest kind `pin`): one entry per
-- message ever pinned, {message_id, at, pinned, expires_at}; an unpin stays as `pinned: false` so an
-- older pin arriving late cannot bring it back. Expand-only (null: nothing pinned yet).
ALTER TABLE "chats" ADD COLUMN "pinned_messages" JSONB;
