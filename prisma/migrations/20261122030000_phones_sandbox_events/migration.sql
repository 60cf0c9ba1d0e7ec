-- AlterTable
ALTER TABLE "phones" ALTER COLUMN "org_phone" DROP NOT NULL,
ADD COLUMN     "last_synced_at" TIMESTAMPTZ(3),
ADD COLUMN     "sync_progress" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "sync_status" TEXT NOT NULL DEFAULT 'idle';

-- CreateTable
CREATE TABLE "sandbox_devices" (
    "phone_id" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'UNPAIRED',
    "qr" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_devices_pkey" PRIMARY KEY ("phone_id")
);

-- CreateTable
CREATE TABLE "sandbox_groups" (
    "group_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "participants" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_groups_pkey" PRIMARY KEY ("group_id")
);

-- CreateTable
CREATE TABLE "sandbox_messages" (
    "id" BIGSERIAL NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "unique_id" TEXT NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "sender" TEXT NOT NULL,
    "body" TEXT,
    "message_type" TEXT NOT NULL,
    "media" JSONB,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "ack" SMALLINT NOT NULL DEFAULT 0,
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    "delivered_ack" SMALLINT NOT NULL DEFAULT 0,

    CONSTRAINT "sandbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "phone_id" TEXT,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "group_participants" (
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "is_super_admin" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_participants_pkey" PRIMARY KEY ("phone_id","chat_id","contact_id")
);

-- CreateIndex
CREATE INDEX "sandbox_messages_phone_id_chat_id_idx" ON "sandbox_messages"("phone_id", "chat_id");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_messages_phone_id_unique_id_key" ON "sandbox_messages"("phone_id", "unique_id");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- CreateIndex
CREATE INDEX "group_participants_org_id_chat_id_idx" ON "group_participants"("org_id", "chat_id");
