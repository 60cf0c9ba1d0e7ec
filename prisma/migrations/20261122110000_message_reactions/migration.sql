-- CreateTable
CREATE TABLE "message_reactions" (
    "phone_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "sender_phone" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "reaction_id" TEXT NOT NULL,
    "reaction" TEXT NOT NULL,
    "reacted_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_reactions_pkey" PRIMARY KEY ("phone_id","message_id","sender_phone")
);
