-- Group lifecycle and group notifications (issue 16, items 4 and 5). Expand only: new tables, new
-- columns with defaults, nothing dropped or renamed.

-- The sandbox network keeps a group's settings and its invite link's code.
ALTER TABLE "sandbox_groups" ADD COLUMN "description" TEXT,
  ADD COLUMN "announce" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "restrict" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "member_add_admins_only" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "invite_code" TEXT;
CREATE UNIQUE INDEX "sandbox_groups_invite_code_key" ON "sandbox_groups"("invite_code");

-- The sandbox network's group notifications, one row per receiving phone, until handed on.
CREATE TABLE "sandbox_notifications" (
    "id" BIGSERIAL NOT NULL,
    "phone_id" TEXT NOT NULL,
    "network_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "author" TEXT,
    "recipients" JSONB NOT NULL DEFAULT '[]',
    "body" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "sandbox_notifications_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sandbox_notifications_phone_id_network_id_key" ON "sandbox_notifications"("phone_id", "network_id");
CREATE INDEX "sandbox_notifications_phone_id_delivered_id_idx" ON "sandbox_notifications"("phone_id", "delivered", "id");

-- Group notifications as each phone saw them (the chats service's; GET /chats/notifications).
CREATE TABLE "chat_notifications" (
    "notification_id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "org_phone" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "author" TEXT,
    "recipientids" TEXT[],
    "body" TEXT,
    "unique_id" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chat_notifications_pkey" PRIMARY KEY ("notification_id")
);
CREATE UNIQUE INDEX "chat_notifications_phone_id_chat_id_unique_id_key" ON "chat_notifications"("phone_id", "chat_id", "unique_id");
CREATE INDEX "chat_notifications_org_id_timestamp_notification_id_idx" ON "chat_notifications"("org_id", "timestamp" DESC, "notification_id" DESC);
CREATE INDEX "chat_notifications_org_id_chat_id_timestamp_idx" ON "chat_notifications"("org_id", "chat_id", "timestamp" DESC);

-- A group's settings as its phone's connector reports them (GET /chats answers them: ChatType's
-- group_description, info_admins_only, messages_admins_only, add_members_admins_only).
ALTER TABLE "chats" ADD COLUMN "group_description" TEXT,
  ADD COLUMN "info_admins_only" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "messages_admins_only" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "add_members_admins_only" BOOLEAN;
