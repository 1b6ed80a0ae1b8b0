/** How an import's work tells how far it has got: a terminal's bar, JSON lines from a worker, a BullMQ job's progress. */

/** Reports how far a phase of work has got; `total` is null when unknown. */
export type ProgressReporter = (progress: { phase: string; done: number; total: number | null; unit?: string }) => void;
