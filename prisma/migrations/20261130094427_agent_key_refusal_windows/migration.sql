-- CreateTable
CREATE TABLE "AgentKeyRefusalWindow" (
    "windowStart" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "reasons" TEXT[],

    CONSTRAINT "AgentKeyRefusalWindow_pkey" PRIMARY KEY ("windowStart","source")
);
