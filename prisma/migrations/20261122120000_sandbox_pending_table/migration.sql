-- The sandbox connector's to-do list moves out of sandbox_messages into a table of its own, holding
-- only what is still to hand on. Before, two columns on every message row (delivered, delivered_ack)
-- and a partial index on them: with stale planner statistics Postgres read the pending rows through
-- the (phone_id, sent_message_id) index, filtering the phone's whole history (12 ms a call at 40k
-- rows), and each mark rewrote a row of the big table with new entries in all 5 of its indexes
-- (`delivered` is in an index predicate, so no update was HOT). Now a mark deletes a small row.

-- One row per message with something still to hand on: the message itself (new_message) and/or
-- its ack (`ack`, the one to report).
CREATE TABLE "sandbox_pending" (
    "message_id" BIGINT NOT NULL,
    "phone_id" TEXT NOT NULL,
    "new_message" BOOLEAN NOT NULL,
    "ack" SMALLINT NOT NULL,

    CONSTRAINT "sandbox_pending_pkey" PRIMARY KEY ("message_id")
);

CREATE INDEX "sandbox_pending_phone_id_message_id_idx" ON "sandbox_pending"("phone_id", "message_id");

ALTER TABLE "sandbox_pending" ADD CONSTRAINT "sandbox_pending_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "sandbox_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What was pending under the old columns stays pending: a message not handed on, or an ack moved
-- since the last one reported.
INSERT INTO "sandbox_pending" ("message_id", "phone_id", "new_message", "ack")
SELECT "id", "phone_id", NOT "delivered", "ack" FROM "sandbox_messages"
WHERE "delivered" = false OR "delivered_ack" <> "ack";

DROP INDEX "sandbox_messages_pending_idx";

-- The old columns stay one release (expand, then contract): phones pods of the previous release,
-- still running during a rolling update, read and write them (at worst handing a message on twice,
-- which ingestion absorbs). Nothing of this release uses them; the next release drops them.
