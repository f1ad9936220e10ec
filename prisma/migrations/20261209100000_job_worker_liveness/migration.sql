-- The job workers of the running worker processes and the advisory-lock key each process holds while it lives
-- (lib/server/jobs/worker-liveness.ts): the sweep frees the jobs a SIGKILLed worker left locked within seconds.
CREATE TABLE "JobWorker" (
    "workerId" TEXT NOT NULL,
    "instanceKey" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JobWorker_pkey" PRIMARY KEY ("workerId")
);

CREATE INDEX "JobWorker_instanceKey_idx" ON "JobWorker"("instanceKey");
