/**
 * Minimal example arguments generated from a command's input JSON Schema (`system.schema.get`'s
 * `example_minimal_args`): required properties only, recursively, each with a value that satisfies its
 * schema — strings honour const/enum/pattern/minLength/maxLength/format, numbers their bounds, arrays
 * their minItems. String values are chosen from realistic placeholders (`TASK-001`, `main`, `notes`)
 * by field name, so the example reads like a real call and can be pasted as it is. Rules JSON Schema
 * cannot state (exactly one of two fields) are the command's own `example`. Pure: no catalog, no I/O.
 */

export type JsonSchema = Record<string, unknown>;

/** A conflict id is `CONFLICT-` + 32 hex digits (graph conflicts): the all-zero one is well-formed. */
const CONFLICT_PLACEHOLDER = `CONFLICT-${"0".repeat(32)}`;

/**
 * Placeholders by field name, tried in order; `<domain>:<field>` wins over `<field>` (in the think
 * domain `from`/`to`/`into`/`parent` are card ids, elsewhere branches or plans).
 */
const FIELD_PLACEHOLDERS: Readonly<Record<string, readonly string[]>> = {
  target: ["TASK-001"],
  task: ["TASK-001"],
  id: ["CARD-1"],
  plan: ["PLAN-001"],
  parent: ["PLAN-001"],
  step_id: ["STEP-0000000A"],
  parent_step_id: ["STEP-0000000A"],
  path: ["s:0"],
  parent_path: ["s:0"],
  conflict_id: [CONFLICT_PLACEHOLDER],
  // Diffs and merges go from a working branch to main (main has no base to merge back into).
  branch: ["main"],
  from: ["experiment"],
  to: ["main"],
  into: ["main"],
  ref: ["main"],
  base: ["main"],
  name: ["experiment"],
  old: ["experiment"],
  new: ["spike"],
  doc: ["notes"],
  notes_doc: ["notes"],
  graph_doc: ["graph"],
  trace_doc: ["trace"],
  card_id: ["CARD-1"],
  subgoal_id: ["CARD-1"],
  duplicates: ["CARD-2"],
  type: ["hypothesis"],
  rel: ["supports"],
  status: ["open"],
  title: ["Ship the importer"],
  content: ["Decision: keep notes append-only."],
  note: ["Reproduced the bug with a failing test."],
  text: ["Reproduced the bug with a failing test."],
  message: ["Record the decision"],
  artifact: ["Decision: keep notes append-only."],
  step: ["Reproduce the bug"],
  card: ["Notes stay append-only"],
  cmd: ["vcs.notes.commit"],
  old_name: ["notes_commit"],
  "think:from": ["CARD-1"],
  "think:to": ["CARD-2"],
  "think:into": ["CARD-1"],
  "think:parent": ["CARD-1"],
};

/** Tried after the field's own placeholders, so any pattern of the catalog finds a realistic value. */
const GENERIC_PLACEHOLDERS: readonly string[] = ["notes", "main", "TASK-001", "PLAN-001", "STEP-0000000A", "CARD-1", "s:0"];

/** Used only when a schema names this format. */
const FORMAT_PLACEHOLDERS: Readonly<Record<string, string>> = {
  uri: "https://example.com/notes",
  url: "https://example.com/notes",
  email: "agent@example.com",
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
};

/** Integers fall back to 1 (ids, seqs and counts start there); numbers likewise. */
const DEFAULT_NUMBER = 1;

export interface ExampleContext {
  /** The command's domain (first segment of its dotted name): selects `<domain>:<field>` placeholders. */
  domain: string;
}

const patternCache = new Map<string, RegExp | null>();

function compiled(pattern: string): RegExp | null {
  if (!patternCache.has(pattern)) {
    // JSON Schema patterns are ECMA-262 regexes; the unicode flag first (what validators use), else plain.
    let regex: RegExp | null = null;
    for (const flags of ["u", ""]) {
      try {
        regex = new RegExp(pattern, flags);
        break;
      } catch {
        regex = null;
      }
    }
    patternCache.set(pattern, regex);
  }
  return patternCache.get(pattern) ?? null;
}

function fitsString(value: string, schema: JsonSchema): boolean {
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength) return false;
  if (typeof schema.maxLength === "number" && length > schema.maxLength) return false;
  if (typeof schema.pattern === "string") {
    const regex = compiled(schema.pattern);
    if (!regex?.test(value)) return false;
  }
  return true;
}

function stringExample(schema: JsonSchema, field: string | undefined, context: ExampleContext): string {
  const own = field === undefined ? [] : (FIELD_PLACEHOLDERS[`${context.domain}:${field}`] ?? FIELD_PLACEHOLDERS[field] ?? []);
  const format = typeof schema.format === "string" ? FORMAT_PLACEHOLDERS[schema.format] : undefined;
  const candidates = [...(format ? [format] : []), ...own, ...GENERIC_PLACEHOLDERS];
  const found = candidates.find((candidate) => fitsString(candidate, schema));
  if (found !== undefined) return found;
  // No placeholder fits: the shortest run of a letter that the length bounds allow.
  const min = typeof schema.minLength === "number" ? schema.minLength : 1;
  return "x".repeat(Math.max(min, 1));
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  let low: number | undefined;
  if (typeof schema.minimum === "number") low = schema.minimum;
  if (typeof schema.exclusiveMinimum === "number") low = integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + 1;
  let high: number | undefined;
  if (typeof schema.maximum === "number") high = schema.maximum;
  if (typeof schema.exclusiveMaximum === "number") high = integer ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum;
  let value = low ?? DEFAULT_NUMBER;
  if (low === undefined && high !== undefined && value > high) value = high;
  if (integer) value = Math.ceil(value);
  return value;
}

function firstType(schema: JsonSchema): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type))
    return (schema.type as string[]).find((type) => type !== "null") ?? (schema.type[0] as string | undefined);
  if (schema.properties !== undefined) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

/** A value that satisfies `schema`; `field` is the property it fills, if any (it picks the placeholder). */
export function exampleValue(schema: JsonSchema, context: ExampleContext, field?: string): unknown {
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) {
    const usable = variants.find((variant) => variant.type !== "null") ?? variants[0];
    return exampleValue(usable as JsonSchema, context, field);
  }
  switch (firstType(schema)) {
    case "string":
      return stringExample(schema, field, context);
    case "integer":
      return numberExample(schema, true);
    case "number":
      return numberExample(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      const items = (schema.items ?? {}) as JsonSchema;
      return Array.from({ length: count }, () => exampleValue(items, context, field));
    }
    case "object":
      return objectExample(schema, context);
    default:
      // An unconstrained value (`{}`): any JSON fits; a short string reads best.
      return field === undefined ? "notes" : stringExample({}, field, context);
  }
}

function objectExample(schema: JsonSchema, context: ExampleContext): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = exampleValue(properties[name] ?? {}, context, name);
  return out;
}

/** The smallest arguments object the input schema accepts: its required properties, filled in. */
export function minimalArgs(schema: JsonSchema, context: ExampleContext): Record<string, unknown> {
  return objectExample(schema, context);
}
