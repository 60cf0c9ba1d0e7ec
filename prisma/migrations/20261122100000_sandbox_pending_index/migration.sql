-- The sandbox connector polls for rows not yet handed on; without this index each poll walked the
-- phone's whole history (≈ 400 rows read per message handed on in the ingestion benchmark).
CREATE INDEX "sandbox_messages_pending_idx" ON "sandbox_messages" ("phone_id", "id") WHERE "delivered" = false OR "delivered_ack" <> "ack";
