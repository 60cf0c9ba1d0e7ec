-- CreateTable
CREATE TABLE "baileys_auth" (
    "phone_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "value" BYTEA NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "baileys_auth_pkey" PRIMARY KEY ("phone_id","kind","key_id")
);

-- CreateTable
CREATE TABLE "baileys_sent_messages" (
    "phone_id" TEXT NOT NULL,
    "sent_message_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "unique_id" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "baileys_sent_messages_pkey" PRIMARY KEY ("phone_id","sent_message_id")
);
