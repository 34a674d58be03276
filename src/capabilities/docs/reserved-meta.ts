/**
 * The meta fields the server reads from a document entry as its own record: `lane` (a card draft's
 * trace entry, hidden from other agents), `event_id` (the task event an entry mirrors), `card_id` and
 * `card_type` (the card write that left it). Only the server writes them; a caller's meta for a note
 * or a trace step naming one is refused, so a note cannot turn private or pass for a server record.
 */
import { fail } from "../../shared/errors";

export const RESERVED_ENTRY_META = ["lane", "event_id", "card_id", "card_type"] as const;

/** Refuses a caller's entry meta that names a reserved field (INVALID_INPUT, details.field `meta.<name>`). */
export function refuseReservedMeta(meta: Record<string, unknown> | undefined): void {
  if (meta === undefined) return;
  const field = RESERVED_ENTRY_META.find((name) => Object.hasOwn(meta, name));
  if (field === undefined) return;
  fail(
    "INVALID_INPUT",
    `meta.${field} is recorded by the server; a note's meta cannot set it.`,
    `Drop meta.${field} or rename it (e.g. meta.my_${field}); reserved meta fields: ${RESERVED_ENTRY_META.join(", ")}. Notes are shared: for a private draft write a card with lane: "agent".`,
    { field: `meta.${field}`, reserved: [...RESERVED_ENTRY_META] },
  );
}
