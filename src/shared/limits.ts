/**
 * Every bound of the server in one place, each with its reason. Schemas, stores and SQL `LIMIT`s
 * read these constants; nothing else hard-codes a size.
 */

/** One note's content: large enough for a design doc, small enough to stay far below the 2 MB row cap. */
export const MAX_CONTENT_BYTES = 256 * 1024;
/** Titles and short strings shown in lists. */
export const MAX_TITLE_CHARS = 512;
/** Branch, doc, tag and ref names (seed 000 type/rel bound). */
export const MAX_NAME_CHARS = 128;
/** Workspace names (original TYPES.md: 1-128). */
export const MAX_WORKSPACE_CHARS = 128;
/** Serialized `meta` objects on entries. */
export const MAX_META_BYTES = 16 * 1024;
/** Agent ids carried in tokens or the dev header. */
export const MAX_AGENT_ID_CHARS = 128;
/** Idempotency keys. */
export const MAX_IDEMPOTENCY_KEY_CHARS = 128;
/** Request bodies: above the largest legal note plus envelope, far below the 32 MiB RPC cap. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/**
 * Levels of nesting any JSON argument may have (an object or array inside another counts one level).
 * Real arguments nest a handful of levels (a card's meta, an import op); a deeper value is refused in the
 * Worker before validation, since copying it across the RPC boundary would exhaust the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Page sizes: default and ceiling for entry lists (show, diff, merge, log). Original: 1..200. */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 200;
/** Entries a merge copies per call: whole rows are loaded, so 50 × 256 KB stays far below 128 MB. */
export const MAX_MERGE_PAGE = 50;
/** Branch, tag, doc and reflog lists. */
export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;
/** Base-chain depth (seed contract): deeper chains are refused at creation. */
export const MAX_BRANCH_DEPTH = 32;

/** Budget profiles (DESIGN §5): characters of the compact JSON payload. */
export const BUDGET_PROFILES = {
  portal: 6_000,
  default: 20_000,
  audit: 80_000,
} as const;
export type BudgetProfile = keyof typeof BUDGET_PROFILES;
/**
 * The smallest budget, in characters (and bytes): the minimal answer with its warnings whole (a clamp and
 * BUDGET_MINIMAL, about 350 characters; with clamps of max_bytes and max_lines too, about 600) and, on a
 * portal, the compact capsule with its pasteable best action (300 to 450). Smaller budgets are raised to
 * it with BUDGET_MIN_CLAMPED. test/budget-ladder.test.ts measures the minimal answers against it.
 */
export const MIN_BUDGET_CHARS = 800;
/** The smallest line budget: the minimal answer's text block with four warnings, its budget and a capsule. */
export const MIN_BUDGET_LINES = 12;
/** Upper bound for an explicit `max_chars` (the audit profile is the largest sensible read). */
export const MAX_BUDGET_CHARS = 1_000_000;
