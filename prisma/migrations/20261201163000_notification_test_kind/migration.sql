-- "Send test" for the Slack webhook and e-mail in Admin (docs/admin-api.md "Slack and e-mail deliveries"): a test
-- notification goes through the same outbox row and worker job as every other one, with its own kind.
-- AlterEnum
ALTER TYPE "NotificationKind" ADD VALUE 'test';
