-- CreateTable
CREATE TABLE "media_public_objects" (
    "bucket" TEXT NOT NULL,
    "object_name" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_public_objects_pkey" PRIMARY KEY ("bucket","object_name")
);

-- CreateIndex
CREATE INDEX "media_public_objects_org_id_idx" ON "media_public_objects"("org_id");
