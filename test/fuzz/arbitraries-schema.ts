/**
 * The JSON Schema side of the fuzzer's arbitraries: the schema and option types, and what a value must
 * satisfy to fit a schema (types, variants, string lengths and patterns). No fast-check here.
 */

export type JsonSchema = Record<string, unknown>;

export interface GenOptions {
  /** Strings that exist in the fuzz workspace (ids, branch names); tried for every string field they fit. */
  known?: readonly string[];
  /** Values by field name: a valid value of that field is one of them (`agent_id` → the caller). */
  byField?: Readonly<Record<string, readonly unknown[]>>;
  /** Fixed top-level values: always set on valid arguments (a mutation may still change them). */
  fixed?: Readonly<Record<string, unknown>>;
  /** A realistic placeholder per field (e.g. `exampleValue` of the schema module). */
  placeholder?: (schema: JsonSchema, field: string | undefined) => unknown;
}

const regexCache = new Map<string, RegExp | null>();

export function regexOf(pattern: string): RegExp | null {
  if (!regexCache.has(pattern)) {
    let regex: RegExp | null = null;
    try {
      regex = new RegExp(pattern);
    } catch {
      regex = null;
    }
    regexCache.set(pattern, regex);
  }
  return regexCache.get(pattern) ?? null;
}

/** zod counts UTF-16 units, JSON Schema code points: a value must fit both. */
export function fitsString(value: string, schema: JsonSchema): boolean {
  const points = [...value].length;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (value.length < min || points < min || value.length > max || points > max) return false;
  if (typeof schema.pattern === "string") return regexOf(schema.pattern)?.test(value) === true;
  return true;
}

export function fitsValue(value: unknown, schema: JsonSchema): boolean {
  if ("const" in schema) return value === schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  const types = typesOf(schema);
  if (typeof value === "string") return (types.length === 0 || types.includes("string")) && fitsString(value, schema);
  if (typeof value === "number") return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
  if (typeof value === "boolean") return types.includes("boolean");
  if (value === null) return types.includes("null");
  return false;
}

export function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (schema.properties !== undefined) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return [];
}

export function variantsOf(schema: JsonSchema): JsonSchema[] | undefined {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(variants) && variants.length > 0 ? variants : undefined;
}
