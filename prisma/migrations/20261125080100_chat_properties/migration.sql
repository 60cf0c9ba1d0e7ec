-- A chat's team-inbox values, organization-wide (issue 17 item 5): assignee, custom property values,
-- access overrides, and labels. Owned by the chats service. New tables only (expand-only).
CREATE TABLE "chat_properties" (
    "org_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "assigned_to" TEXT,
    "custom_properties" JSONB NOT NULL DEFAULT '{}',
    "override_chat_access" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_properties_pkey" PRIMARY KEY ("org_id","chat_id")
);

CREATE TABLE "chat_labels" (
    "org_id" UUID NOT NULL,
    "chat_id" TEXT NOT NULL,
    "label_id" UUID NOT NULL,
    "label_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_labels_pkey" PRIMARY KEY ("org_id","chat_id","label_id")
);

-- GET /chats?label=<id> and ?label=<name>: the label's chats of the organization, from the index alone.
CREATE INDEX "chat_labels_org_id_label_id_chat_id_idx" ON "chat_labels"("org_id", "label_id", "chat_id");
CREATE INDEX "chat_labels_org_id_label_name_chat_id_idx" ON "chat_labels"("org_id", "label_name", "chat_id");
