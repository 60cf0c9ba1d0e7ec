-- The media service's per-organization defaults move to a table of its own (issue: each service
-- reaches only its own tables). Expand now, contract later: organizations.media_access_default and
-- media_link_expiry_seconds stay one release, unread, and are dropped by a later migration.
CREATE TABLE "media_settings" (
    "org_id" UUID NOT NULL,
    "access_default" TEXT NOT NULL DEFAULT 'private',
    "link_expiry_seconds" INTEGER NOT NULL DEFAULT 86400,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_settings_pkey" PRIMARY KEY ("org_id")
);

-- Organizations whose defaults differ from the spec's keep them; the others need no row.
INSERT INTO "media_settings" ("org_id", "access_default", "link_expiry_seconds")
SELECT "id", "media_access_default", "media_link_expiry_seconds" FROM "organizations"
WHERE "media_access_default" <> 'private' OR "media_link_expiry_seconds" <> 86400;
