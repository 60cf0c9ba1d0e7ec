-- GET /message/{message_id} and the message actions take a queue id too: the sent message keeps it as
-- sent_message_id. Only messages sent through the API have one, hence the partial index. Expand-only.
CREATE INDEX "messages_org_sent_message_id_idx" ON "messages" ("org_id", "sent_message_id") WHERE "sent_message_id" IS NOT NULL;
