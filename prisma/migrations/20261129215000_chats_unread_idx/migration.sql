-- Issue 34 (docs/services/analytics.md, "unread_chats"): GET /analytics/now counts the chat copies with unread
-- messages through chats.v1.chat.count-unread. A partial index of the copies with unread_count > 0 keeps that
-- count (and its anti-join on a member's read marks) to the unread copies only, not every chat of the
-- organization. Expand-only.
CREATE INDEX "chats_org_unread_idx" ON "chats"("org_id", "phone_id") WHERE "unread_count" > 0;
