-- AlterTable
ALTER TABLE "PasskeyCredential" ADD COLUMN     "removedAt" TIMESTAMP(3);
