-- Issue 34 (docs/services/analytics.md, "Team"): the team figures read kept counters, not the counted messages.
-- responder: who sent the response (the response message's performed_by), kept with the sample.
ALTER TABLE "analytics_responses" ADD COLUMN "responder" TEXT;

UPDATE "analytics_responses" r SET "responder" = m."performed_by"
FROM "analytics_messages" m
WHERE m."org_id" = r."org_id" AND m."phone_id" = r."phone_id" AND m."message_id" = r."response_message_id" AND m."performed_by" IS NOT NULL;

-- The messages a member sent per (organization, 15-minute slot, phone, chat, member).
CREATE TABLE "analytics_member_slots" (
    "org_id" UUID NOT NULL,
    "slot" TIMESTAMPTZ(3) NOT NULL,
    "phone_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "member" TEXT NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_member_slots_pkey" PRIMARY KEY ("org_id","slot","phone_id","chat_id","member")
);

INSERT INTO "analytics_member_slots" ("org_id", "slot", "phone_id", "chat_id", "member", "sent")
SELECT "org_id", to_timestamp(floor(extract(epoch FROM "at") / 900) * 900), "phone_id", "chat_id", "performed_by", count(*)::int
FROM "analytics_messages" WHERE "from_me" AND "performed_by" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;

-- Response-time histograms (docs/decisions/0096): per (organization, UTC hour / day, clock, phone, first/next, log bucket),
-- written from the samples already stored (the bucket expression of libs/analytics-feature/src/ingest/response-buckets.ts).
CREATE TABLE "analytics_response_buckets" (
    "org_id" UUID NOT NULL,
    "unit" CHAR(1) NOT NULL,
    "business" BOOLEAN NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "phone_id" TEXT NOT NULL,
    "is_next" BOOLEAN NOT NULL,
    "bucket" SMALLINT NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_response_buckets_pkey" PRIMARY KEY ("org_id","unit","business","start","phone_id","is_next","bucket")
);

INSERT INTO "analytics_response_buckets" ("org_id", "unit", "business", "start", "phone_id", "is_next", "bucket", "n")
SELECT r."org_id", u.unit, c.business, date_trunc(u.field, r."incoming_at", 'UTC'), r."phone_id", r."is_next",
  (CASE WHEN c.ms <= 0 THEN -1 ELSE ceil(ln((c.ms)::float8) / 0.040005334613699206)::int END), count(*)::int
FROM "analytics_responses" r
CROSS JOIN (VALUES ('h', 'hour'), ('d', 'day')) AS u(unit, field)
CROSS JOIN LATERAL (VALUES (false, r."response_ms"), (true, COALESCE(r."business_ms", r."response_ms"))) AS c(business, ms)
GROUP BY 1, 2, 3, 4, 5, 6, 7;
