// The moderation state a new post arrives in when no rule of its wall
// decides: its moderation mode's (the wall's, or its feed's own). Ingestion
// asks the rules first (src/ingest/arrival.ts); the store only writes the
// arrival it is given.
import type { DecisionDetail } from './decision.js';
import type { ModerationMode, PostState } from './lists.js';

/** The moderation state a new post arrives in, and the decision that put it there (none: by = null). */
export interface Arrival {
  state: PostState;
  /** `rule:<id>` when a rule decided; null when the mode did */
  by: string | null;
  reason: string | null;
  /** what an automatic rule found (label, score, threshold, model); absent for the mode and plain rules */
  detail?: DecisionDetail | null;
}

const APPROVED: Arrival = { state: 'approved', by: null, reason: null };

/** The arrival of every new post under a moderation mode alone: manual → pending. */
export function arrivalByMode(mode: ModerationMode): Arrival {
  return mode === 'manual' ? { state: 'pending', by: null, reason: null } : APPROVED;
}
