-- Issue 33 (the console as the team's inbox): read marks per member (docs/decisions/0091). A member's
-- unread count on a copy of a chat is the inbound messages after their mark (or the copy's
-- unread_count while they have none). Expand-only: a new table, nothing else changes.
CREATE TABLE "chat_member_reads" (
    "org_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chat_member_reads_pkey" PRIMARY KEY ("org_id","member_id","phone_id","chat_id")
);
