/**
 * Valid values for the fuzzer: arbitraries honouring a JSON Schema (type, const, enum, anyOf/oneOf,
 * pattern, min/max length, bounds, items, required properties), preferring known values that fit.
 */
import fc from "fast-check";
import { fitsString, fitsValue, type GenOptions, type JsonSchema, regexOf, typesOf, variantsOf } from "./arbitraries-schema";

/** Generated strings stay short unless the boundary branch asks for the longest legal one. */
const SHORT_STRING = 24;
/** The boundary branch builds strings up to this long: a note's cap (256 KB) in "é" is 512 KB, one fits the body cap. */
const MAX_BOUNDARY_STRING = 262_144;
/** Arrays: up to this many items above their minimum. */
const EXTRA_ITEMS = 3;

function stringArb(schema: JsonSchema, field: string | undefined, options: GenOptions): fc.Arbitrary<string> {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  const placeholder = options.placeholder?.(schema, field);
  const known = [...(placeholder === undefined ? [] : [placeholder]), ...(options.known ?? [])].filter(
    (value): value is string => typeof value === "string" && fitsString(value, schema),
  );
  const parts: fc.WeightedArbitrary<string>[] = [];
  if (known.length > 0) parts.push({ weight: 5, arbitrary: fc.constantFrom(...new Set(known)) });
  if (schema.format === "uri") parts.push({ weight: 3, arbitrary: fc.webUrl() });
  const regex = typeof schema.pattern === "string" ? regexOf(schema.pattern) : null;
  if (regex) {
    parts.push({ weight: 3, arbitrary: fc.stringMatching(regex).filter((value) => fitsString(value, schema)) });
  } else if (typeof schema.pattern !== "string") {
    const generatedMax = Math.max(min, Math.min(max ?? SHORT_STRING, min + SHORT_STRING));
    parts.push({
      weight: 3,
      arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: generatedMax }).filter((v) => fitsString(v, schema)),
    });
    // The longest legal value (one letter repeated: code points = UTF-16 units; "é" is 2 UTF-8 bytes,
    // so byte caps are crossed while character caps are kept), and the shortest.
    if (max !== undefined) {
      const longest = Math.max(min, Math.min(max, MAX_BOUNDARY_STRING));
      parts.push({ weight: 1, arbitrary: fc.constantFrom("y".repeat(longest), "é".repeat(longest), "z".repeat(Math.max(min, 1))) });
    }
  }
  if (parts.length === 0) parts.push({ weight: 1, arbitrary: fc.constant("x".repeat(Math.max(min, 1))) });
  return fc.oneof(...parts);
}

function integerArb(schema: JsonSchema): fc.Arbitrary<number> {
  let low = typeof schema.minimum === "number" ? schema.minimum : Number.MIN_SAFE_INTEGER;
  if (typeof schema.exclusiveMinimum === "number") low = Math.floor(schema.exclusiveMinimum) + 1;
  let high = typeof schema.maximum === "number" ? schema.maximum : Number.MAX_SAFE_INTEGER;
  if (typeof schema.exclusiveMaximum === "number") high = Math.ceil(schema.exclusiveMaximum) - 1;
  low = Math.ceil(low);
  high = Math.floor(high);
  const clampedLow = Math.max(low, -(2 ** 31));
  const clampedHigh = Math.min(high, 2 ** 31 - 1);
  const parts: fc.Arbitrary<number>[] = [fc.constantFrom(...new Set([low, high]))];
  if (clampedLow <= clampedHigh) {
    parts.push(fc.integer({ min: clampedLow, max: clampedHigh }));
    // Small values are the interesting ones for ids, limits and seqs.
    const smallHigh = Math.min(clampedHigh, Math.max(clampedLow, 0) + 20);
    parts.push(fc.integer({ min: clampedLow, max: Math.max(clampedLow, smallHigh) }));
  }
  return fc.oneof(...parts);
}

function numberArb(schema: JsonSchema): fc.Arbitrary<number> {
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
  return fc.double({
    min: exclusiveMin ?? min ?? -1e9,
    max: exclusiveMax ?? max ?? 1e9,
    minExcluded: exclusiveMin !== undefined,
    maxExcluded: exclusiveMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectArb(
  schema: JsonSchema,
  options: GenOptions,
  fixed?: Readonly<Record<string, unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties);
  if (names.length === 0 && schema.additionalProperties !== false) {
    const valueSchema =
      typeof schema.additionalProperties === "object" && schema.additionalProperties !== null
        ? (schema.additionalProperties as JsonSchema)
        : {};
    const keySchema = (schema.propertyNames ?? { type: "string" }) as JsonSchema;
    return fc.dictionary(
      stringArb({ ...keySchema, maxLength: Math.min(Number(keySchema.maxLength ?? 16), 16) }, undefined, {}),
      validValue(valueSchema, options),
      {
        maxKeys: 3,
      },
    );
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) {
    if (fixed && name in fixed) continue;
    model[name] = validValue(properties[name] ?? {}, options, name);
  }
  const requiredKeys = names.filter((name) => required.has(name) && !(fixed && name in fixed));
  // At most three optional fields at a time: every flag is reached over a run, and fields that
  // exclude each other (one of path and anchor) rarely meet.
  const optional = names.filter((name) => !required.has(name) && !(fixed && name in fixed));
  return fc
    .tuple(
      fc.record(Object.fromEntries(requiredKeys.map((name) => [name, model[name] as fc.Arbitrary<unknown>]))),
      fc
        .subarray(optional, { maxLength: Math.min(optional.length, 3) })
        .chain((chosen) => fc.record(Object.fromEntries(chosen.map((name) => [name, model[name] as fc.Arbitrary<unknown>])))),
    )
    .map(([base, extra]) => ({ ...base, ...extra, ...(fixed ?? {}) }));
}

/** A value that satisfies `schema` (as far as JSON Schema says); `field` picks known values. */
export function validValue(schema: JsonSchema, options: GenOptions = {}, field?: string): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const variants = variantsOf(schema);
  if (variants) return fc.oneof(...variants.map((variant) => validValue(variant, options, field)));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue({ ...schema, type }, options, field)));
  // A field with values of its own takes only those (the agent's own id, the workspace's guard).
  const own = field === undefined ? [] : (options.byField?.[field] ?? []).filter((value) => fitsValue(value, schema));
  return own.length > 0 ? fc.constantFrom(...own) : generatedValue(schema, types[0], options, field);
}

function generatedValue(
  schema: JsonSchema,
  type: string | undefined,
  options: GenOptions,
  field: string | undefined,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringArb(schema, field, options);
    case "integer":
      return integerArb(schema);
    case "number":
      return numberArb(schema);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : minLength + EXTRA_ITEMS;
      return fc.array(validValue((schema.items ?? {}) as JsonSchema, options, field), {
        minLength,
        maxLength: Math.max(minLength, Math.min(maxItems, minLength + EXTRA_ITEMS)),
      });
    }
    case "object":
      return objectArb(schema, options);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Valid-ish arguments for a command: an object honouring its input schema, with `options.fixed` set. */
export function validArgs(schema: JsonSchema, options: GenOptions = {}): fc.Arbitrary<Record<string, unknown>> {
  return objectArb(schema, options, options.fixed);
}
