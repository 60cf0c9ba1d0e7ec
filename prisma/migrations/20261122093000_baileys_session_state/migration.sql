-- CreateTable
CREATE TABLE "baileys_lids" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "lid" TEXT NOT NULL,
    "pn" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "baileys_lids_pkey" PRIMARY KEY ("org_id","phone_id","lid")
);

-- CreateTable
CREATE TABLE "baileys_history_anchors" (
    "org_id" UUID NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "remote_jid" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "participant" TEXT,
    "message_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "baileys_history_anchors_pkey" PRIMARY KEY ("org_id","phone_id","chat_id")
);
