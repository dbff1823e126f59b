/**
 * Lock options for workers whose running jobs must come back quickly after a crash. BullMQ renews
 * a running job's lock every half `lockDuration`; a job whose lock ran out (its process died) is
 * found by the stalled-job check, which runs when a worker starts and every `stalledInterval`,
 * and is handed to a worker again. BullMQ's defaults (30 s each) left the jobs of a killed
 * process waiting about a minute after the restart (bench:webhooks, recovery phase).
 */
export const QUICK_RECOVERY = { lockDuration: 5_000, stalledInterval: 2_000 } as const;
