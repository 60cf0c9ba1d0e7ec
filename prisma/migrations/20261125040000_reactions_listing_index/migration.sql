-- GET /reactions: an organization's reactions newest first.
CREATE INDEX "message_reactions_org_id_reacted_at_idx" ON "message_reactions"("org_id", "reacted_at" DESC);
