// The advisory review claim ("I'm reviewing this"): how long it lasts. Pure, shared by server and UI.

/** A claim lapses by itself this long after it was taken (or last renewed by the same reviewer). */
export const CLAIM_MINUTES = 10;
