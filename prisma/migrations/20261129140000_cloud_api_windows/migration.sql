-- Issue 35: the 24-hour customer-service window of each customer of a Cloud API phone (when they last
-- wrote, and that message's wamid for read marks). Expand-only: a new table.
CREATE TABLE "cloud_api_windows" (
    "phone_id" TEXT NOT NULL,
    "wa_id" TEXT NOT NULL,
    "last_inbound_at" TIMESTAMPTZ(3) NOT NULL,
    "last_wamid" TEXT NOT NULL,

    CONSTRAINT "cloud_api_windows_pkey" PRIMARY KEY ("phone_id","wa_id")
);
