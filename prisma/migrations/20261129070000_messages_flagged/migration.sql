-- Issue 33 (the console's chat list): GET /chats counts each chat's flagged messages (flag_count) and
-- filters by them (flagged=true|false). Few messages are flagged, hence the partial index: the count
-- reads only those. Expand-only.
CREATE INDEX "messages_org_chat_flagged_idx" ON "messages" ("org_id", "chat_id") INCLUDE ("phone_id", "unique_id") WHERE "flag_status";
