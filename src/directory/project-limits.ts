/**
 * Bounds of the Directory's project reads and writes, each with its reason. They live beside the
 * Directory (not in `shared/limits.ts`) because only the project commands and the Directory use them.
 */

/** list_projects page by default: ~130 characters a project, so a page fits the default 20k budget. */
export const DEFAULT_PROJECT_PAGE = 100;
/** Largest page: "200+ projects in one call"; 500 small rows (~65k characters) fit the audit profile. */
export const MAX_PROJECT_PAGE = 500;
/** Rows one list_projects call may examine when token patterns filter them: bounded work per call. */
export const MAX_PROJECT_SCAN = 5_000;
/** Rows read per step of that scan: a page of allowed projects usually needs one step. */
export const PROJECT_SCAN_BATCH = 500;
/** Free-id probes of one generated create (skipping ids taken by hand): far above any real clash run. */
export const MAX_ID_PROBES = 1_000;
/** Project descriptions: a paragraph or two, small enough to keep list pages light. */
export const MAX_DESCRIPTION_CHARS = 4_000;
/** The slug part of a generated id, so `prefix/slug-NNN` stays a readable, valid workspace name. */
export const MAX_SLUG_CHARS = 48;
/** Room kept after a generated base for `-<counter>` (a dash and up to 7 digits). */
export const COUNTER_SUFFIX_CHARS = 8;
