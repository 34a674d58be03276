/**
 * What the budget ladder (budget.ts) keeps before it drops ids: which fields name an item, whether an
 * answer names any, and the ids form — the payload's scalars and the one item its trim keeps longest,
 * stubbed — tried after a command's small forms and before the minimal answer. Pure.
 */
import { type BudgetSpec, type Payload, stub } from "./budget.trim";

/**
 * Fields that name an item an agent can open or page to: card, entry, event, step, record, session, job
 * and conflict ids. A warning, the budget and a portal's capsule are not the answer's items.
 */
const ID_FIELDS = new Set(["id", "seq", "card_id", "event_id", "step_id", "record_id", "session_id", "job", "conflict_id"]);
const NOT_ITEMS = new Set(["warnings", "budget", "capsule"]);

/** Whether `value` names at least one id (outside its warnings, budget and capsule). */
export function namesIds(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(namesIds);
  if (value === null || typeof value !== "object") return false;
  for (const [key, inner] of Object.entries(value)) {
    if (NOT_ITEMS.has(key)) continue;
    if (ID_FIELDS.has(key) && (typeof inner === "string" || typeof inner === "number")) return true;
    if (namesIds(inner)) return true;
  }
  return false;
}

/**
 * A scalar field the ids form and the minimal answer keep. A top-level page's `next_cursor` (log,
 * get_record_history) is not one: it continues after the last item of the whole page, so following it
 * from a form that shows one item or none would pass over the others; `has_more` stays.
 */
export function isScalar(key: string, value: unknown): boolean {
  return key !== "next_cursor" && (value === null || typeof value !== "object");
}

function listAt(payload: Payload, path: string): unknown[] | undefined {
  const [head, child] = path.split(".") as [string, string | undefined];
  const value = child === undefined ? payload[head] : (payload[head] as Payload | undefined)?.[child];
  return Array.isArray(value) ? value : undefined;
}

/**
 * The ids form: the payload's scalars and, at its own path, the item the trim drops last (the first item
 * of a list trimmed from its end, else the last, in the last declared list that has one), stubbed like
 * the trim stubs it. Its ids are a subset of every trimmed answer that keeps an item, so a larger budget
 * never names fewer. Undefined when that item names no id.
 */
export function idsForm(payload: Payload, spec: BudgetSpec): Payload | undefined {
  const fromEnd = (path: string) => spec.trimFromEnd === true || (Array.isArray(spec.trimFromEnd) && spec.trimFromEnd.includes(path));
  for (const path of [...spec.lists].reverse()) {
    const items = listAt(payload, path);
    if (!items || items.length === 0) continue;
    const item = fromEnd(path) ? items[0] : items[items.length - 1];
    const stubbed = stub(item, spec.keep);
    const kept = JSON.stringify(stubbed).length < JSON.stringify(item).length ? stubbed : item;
    if (!namesIds(kept)) return undefined;
    const scalars: Payload = {};
    for (const [key, value] of Object.entries(payload)) if (isScalar(key, value)) scalars[key] = value;
    const [head, child] = path.split(".") as [string, string | undefined];
    return { ...scalars, [head]: child === undefined ? [kept] : { [child]: [kept] } };
  }
  return undefined;
}
