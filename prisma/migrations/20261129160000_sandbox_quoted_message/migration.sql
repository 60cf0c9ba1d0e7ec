-- Sandbox network: a reply sent through a sandbox phone (reply_to) carries its quoted message, as a
-- real network threads it, so the stored outgoing message has quoted_message_id (issue 33). Expand-only.
ALTER TABLE "sandbox_messages" ADD COLUMN "quoted_message_id" TEXT;
