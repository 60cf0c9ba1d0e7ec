-- Contacts (chats service): learned by ingestion from senders and 1-1 chat partners, or created through the API.
CREATE TABLE "contacts" (
    "org_id" UUID NOT NULL,
    "contact_id" TEXT NOT NULL,
    "contact_name" TEXT,
    "pushname" TEXT,
    "is_internal" BOOLEAN NOT NULL DEFAULT false,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "phone_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "is_imported" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("org_id","contact_id")
);
