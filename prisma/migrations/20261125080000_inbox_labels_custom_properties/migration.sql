-- The team inbox's label catalogue and custom property definitions (issue 17 item 5). New tables only (expand-only).
CREATE TABLE "inbox_labels" (
    "label_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'chat',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_labels_pkey" PRIMARY KEY ("label_id")
);

CREATE UNIQUE INDEX "inbox_labels_org_id_type_name_key" ON "inbox_labels"("org_id", "type", "name");

CREATE TABLE "inbox_custom_properties" (
    "property_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "property_name" TEXT NOT NULL,
    "property_value_type" TEXT NOT NULL DEFAULT 'text',
    "property_value" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "is_required" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL DEFAULT 'chat',
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_custom_properties_pkey" PRIMARY KEY ("property_id")
);

CREATE INDEX "inbox_custom_properties_org_id_created_at_idx" ON "inbox_custom_properties"("org_id", "created_at");
-- Names are unique in an organization regardless of case.
CREATE UNIQUE INDEX "inbox_custom_properties_org_name_key" ON "inbox_custom_properties"("org_id", lower("property_name"));
