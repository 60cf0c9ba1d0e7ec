-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'pro',
    "plan_active" BOOLEAN NOT NULL DEFAULT true,
    "rate_limit_per_second" INTEGER,
    "media_access_default" TEXT NOT NULL DEFAULT 'private',
    "media_link_expiry_seconds" INTEGER NOT NULL DEFAULT 86400,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "phone_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "phone_scoped" BOOLEAN NOT NULL DEFAULT false,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phones" (
    "phone_id" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "org_phone" TEXT NOT NULL,
    "phone_name" TEXT,
    "phone_image" TEXT,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "connector" TEXT NOT NULL DEFAULT 'sandbox',
    "wa_state" TEXT NOT NULL DEFAULT 'UNPAIRED',
    "is_ready" BOOLEAN NOT NULL DEFAULT false,
    "qr_code" TEXT,
    "first_connected_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "phones_pkey" PRIMARY KEY ("phone_id")
);

-- CreateTable
CREATE TABLE "chats" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "chat_name" TEXT,
    "chat_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chats_pkey" PRIMARY KEY ("phone_id","chat_id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" BIGSERIAL NOT NULL,
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "unique_id" TEXT NOT NULL,
    "org_phone" TEXT NOT NULL,
    "sender_phone" TEXT NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "body" TEXT,
    "prev_body" TEXT,
    "message_type" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ack" SMALLINT NOT NULL DEFAULT 0,
    "delivery_info" JSONB NOT NULL DEFAULT '{"delivered_count":0,"read_count":0,"pending":[]}',
    "mentioned_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "media" JSONB,
    "fts" TEXT,
    "broadcast" BOOLEAN,
    "sent_message_id" UUID,
    "author" TEXT,
    "broadcast_id" TEXT,
    "device_type" TEXT,
    "duration" TEXT,
    "flag_metadata" JSONB,
    "flag_response_time" DOUBLE PRECISION,
    "flag_status" BOOLEAN,
    "forwarding_score" INTEGER,
    "from" TEXT,
    "has_media" BOOLEAN,
    "has_quoted_msg" BOOLEAN,
    "has_reaction" BOOLEAN,
    "interactive" JSONB,
    "invite_v4" JSONB,
    "is_deleted" BOOLEAN,
    "is_ephemeral" BOOLEAN,
    "is_forwarded" BOOLEAN,
    "is_gif" BOOLEAN,
    "is_starred" BOOLEAN,
    "is_status" BOOLEAN,
    "links" JSONB,
    "location" JSONB,
    "media_key" TEXT,
    "message_ticket_id" TEXT,
    "order_id" TEXT,
    "performed_by" TEXT,
    "poll_info" JSONB,
    "poll_results" JSONB,
    "quoted_message_id" TEXT,
    "raw_data" JSONB,
    "to" TEXT,
    "token" TEXT,
    "vcards" JSONB,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_org_id_idx" ON "api_tokens"("org_id");

-- CreateIndex
CREATE INDEX "phones_org_id_org_phone_idx" ON "phones"("org_id", "org_phone");

-- CreateIndex
CREATE INDEX "chats_org_id_chat_id_idx" ON "chats"("org_id", "chat_id");

-- CreateIndex
CREATE INDEX "messages_org_id_chat_id_timestamp_id_idx" ON "messages"("org_id", "chat_id", "timestamp" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "messages_phone_id_chat_id_timestamp_id_idx" ON "messages"("phone_id", "chat_id", "timestamp" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "messages_phone_id_message_id_key" ON "messages"("phone_id", "message_id");

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phones" ADD CONSTRAINT "phones_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
