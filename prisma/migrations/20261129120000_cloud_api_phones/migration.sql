-- Issue 35: phones of the WhatsApp Business Cloud API connector (`cloud_api`), their sends' Meta ids,
-- and received messages waiting for their media (docs/services/cloud-api.md). Expand-only: new tables.
CREATE TABLE "cloud_api_phones" (
    "phone_id" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "phone_number_id" TEXT NOT NULL,
    "waba_id" TEXT NOT NULL,
    "access_token" BYTEA NOT NULL,
    "app_secret" BYTEA NOT NULL,
    "verify_token" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cloud_api_phones_pkey" PRIMARY KEY ("phone_id")
);

CREATE INDEX "cloud_api_phones_org_id_idx" ON "cloud_api_phones"("org_id");

CREATE TABLE "cloud_api_sent_messages" (
    "phone_id" TEXT NOT NULL,
    "sent_message_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "unique_id" TEXT NOT NULL,
    "wamid" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'accepted',
    "error" JSONB,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cloud_api_sent_messages_pkey" PRIMARY KEY ("phone_id","sent_message_id")
);

CREATE UNIQUE INDEX "cloud_api_sent_messages_phone_id_wamid_key" ON "cloud_api_sent_messages"("phone_id", "wamid");

CREATE INDEX "cloud_api_sent_messages_phone_id_unique_id_idx" ON "cloud_api_sent_messages"("phone_id", "unique_id");

CREATE TABLE "cloud_api_media" (
    "phone_id" TEXT NOT NULL,
    "wamid" TEXT NOT NULL,
    "media_id" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "sha256" TEXT,
    "filename" TEXT,
    "message" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "cloud_api_media_pkey" PRIMARY KEY ("phone_id","wamid")
);

CREATE INDEX "cloud_api_media_phone_id_done_at_idx" ON "cloud_api_media"("phone_id", "done_at");
