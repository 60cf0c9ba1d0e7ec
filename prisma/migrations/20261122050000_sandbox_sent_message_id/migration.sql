-- AlterTable
ALTER TABLE "sandbox_messages" ADD COLUMN     "sent_message_id" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_messages_phone_id_sent_message_id_key" ON "sandbox_messages"("phone_id", "sent_message_id");
