/**
 * The grammar of get_record_diff's `from` and `to`, pure: `current`, `last_save` (the calling
 * session's last save_session), `v3` (a version), `tick:12` (the record as of a project tick) or an
 * ISO timestamp (the record as of that wall-clock time: a lookup the caller asked for, never an order).
 */
export type VersionSpec =
  | { kind: "current" }
  | { kind: "last_save" }
  | { kind: "version"; version: number }
  | { kind: "tick"; tick: number }
  | { kind: "time"; ts_ms: number };

const VERSION = /^v([0-9]{1,9})$/i;
const TICK = /^tick:([0-9]{1,15})$/i;
const ISO_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9:.]+(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?$/;

/** The parsed spec, or undefined when `text` is none of the forms. */
export function parseVersionSpec(text: string): VersionSpec | undefined {
  const trimmed = text.trim();
  if (trimmed === "current") return { kind: "current" };
  if (trimmed === "last_save") return { kind: "last_save" };
  const version = VERSION.exec(trimmed);
  if (version) return { kind: "version", version: Number(version[1]) };
  const tick = TICK.exec(trimmed);
  if (tick) return { kind: "tick", tick: Number(tick[1]) };
  if (ISO_DATE.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (Number.isFinite(ms)) return { kind: "time", ts_ms: ms };
  }
  return undefined;
}
