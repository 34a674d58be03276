/**
 * Rewrites of zod's JSON Schema for the flat tools' listing; tool-definitions.ts chooses which apply.
 * `?toolset=full` lists every command, so whatever one tool's schema repeats (a length cap, a
 * regex, a nested answer shape, the 42 error codes) every client pays about 150 times. These rewrites
 * live here, apart from the choice of which to use, so each can be measured on its own.
 *
 * Every rewrite either changes nothing a validator checks (`withoutRedundancy`, `withoutAnnotations`)
 * or only widens what a schema accepts (`withoutBounds`, `withShortEnums`, `outline`): arguments the
 * server takes and answers it gives still validate. So that a widened branch cannot stop a value
 * matching exactly one branch, the widening rewrites turn `oneOf` into `anyOf`. `not` and `if` are
 * left exactly as written, because widening what they contain would narrow the schema.
 */

export type JsonSchema = { [keyword: string]: unknown };

/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
/** Keywords whose value is one subschema that a rewrite may change (`not` and `if` are left alone). */
const SUBSCHEMA_ONE = new Set(["items", "additionalProperties", "propertyNames", "contains", "then", "else"]);
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords that only annotate: validators read none of them. */
const ANNOTATIONS: ReadonlySet<string> = new Set(["description", "title", "examples", "default", "deprecated", "readOnly", "writeOnly"]);
/** Keywords that bound a value without giving its shape. */
const BOUNDS: ReadonlySet<string> = new Set([
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Applies `rewrite` to every subschema, innermost first; data keywords (`enum`, `const`, …) are values. */
function mapSchema(schema: JsonSchema, rewrite: (node: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SUBSCHEMA_MAPS.has(keyword) && isSchema(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? mapSchema(sub, rewrite) : sub]));
    } else if (SUBSCHEMA_ONE.has(keyword) && isSchema(value)) {
      out[keyword] = mapSchema(value, rewrite);
    } else if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((sub) => (isSchema(sub) ? mapSchema(sub, rewrite) : sub));
    } else {
      out[keyword] = value;
    }
  }
  return rewrite(out);
}

/** `oneOf` as `anyOf`: the same branches, but a value matching two widened ones still passes. */
function inclusive(node: JsonSchema): JsonSchema {
  if (!Array.isArray(node.oneOf) || "anyOf" in node) return node;
  const { oneOf, ...rest } = node;
  return { ...rest, anyOf: oneOf };
}

/**
 * What zod writes that no validator needs: `propertyNames: {type: "string"}` (JSON names are
 * strings), `additionalProperties: {}` (the default) and the ±(2^53 − 1) bounds of `.int()` (numbers
 * beyond them do not survive JSON parsing as integers anyway).
 */
export function withoutRedundancy(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    const out = { ...node };
    if (isSchema(out.propertyNames) && Object.keys(out.propertyNames).length === 1 && out.propertyNames.type === "string") {
      delete out.propertyNames;
    }
    if (out.additionalProperties === true || (isSchema(out.additionalProperties) && Object.keys(out.additionalProperties).length === 0)) {
      delete out.additionalProperties;
    }
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    return out;
  });
}

function withoutKeywords(node: JsonSchema, keywords: ReadonlySet<string>): JsonSchema {
  return Object.fromEntries(Object.entries(node).filter(([keyword]) => !keywords.has(keyword)));
}

/** Without descriptions, titles, defaults and examples: what a validator reads stays the same. */
export function withoutAnnotations(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => withoutKeywords(node, ANNOTATIONS));
}

/** Without lengths, patterns, formats and ranges: the shape stays (types, enums, required fields). */
export function withoutBounds(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => inclusive(withoutKeywords(node, BOUNDS)));
}

/** An enum of more than `maxValues` strings becomes `type: "string"`. */
export function withShortEnums(schema: JsonSchema, maxValues: number): JsonSchema {
  return mapSchema(schema, (node) => {
    const values = node.enum;
    if (!Array.isArray(values) || values.length <= maxValues || !values.every((value) => typeof value === "string")) {
      return inclusive(node);
    }
    const { enum: _values, ...rest } = node;
    return inclusive({ ...rest, type: "string" });
  });
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The JSON types a subschema admits, if it says so (by `type`, `const`, or a union of typed branches). */
function typesOf(node: JsonSchema): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  if ("const" in node) return [jsonTypeOf(node.const)];
  const branches = node.anyOf ?? node.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const types = new Set<string>();
  for (const branch of branches) {
    const own = isSchema(branch) ? typesOf(branch) : undefined;
    if (!own) return undefined;
    // `number` admits every integer, so a union of both is a number.
    for (const type of own) types.add(type === "integer" ? "number" : type);
  }
  return [...types].sort();
}

/**
 * What a subschema says at an outline's edge: its type (or types), its `const` (a marker such as a
 * trimmed answer's `truncated: true`), its `enum` (shorten long ones first: `withShortEnums`) and,
 * for an object, the names of its required fields (an error result's `code`, `message` and
 * `recovery_hint`): about 21,000 characters of the full listing, and a check on every nested object.
 */
function edgeOf(node: JsonSchema): JsonSchema {
  const types = typesOf(node);
  if (!types) return {};
  // Several types as branches, not a `type` array: some clients map schemas onto a one-type dialect
  // (the Inspector's --strict warns about arrays).
  const edge: JsonSchema = types.length === 1 ? { type: types[0] } : { anyOf: types.map((type) => ({ type })) };
  if ("const" in node) edge.const = node.const;
  if (Array.isArray(node.enum)) edge.enum = node.enum;
  if (node.type === "object" && Array.isArray(node.required) && node.required.length > 0) edge.required = node.required;
  return edge;
}

/**
 * The schema's shape down to `depth` levels of named fields (a field of the root is level 1; an
 * array's items stay on their field's level). A field at the edge keeps only what `edgeOf` keeps;
 * `outline(schema, 0)` is the root's edge.
 */
export function outline(schema: JsonSchema, depth: number): JsonSchema {
  if (depth <= 0) return edgeOf(schema);
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "properties" && isSchema(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? outline(sub, depth - 1) : sub]),
      );
    } else if ((keyword === "items" || keyword === "additionalProperties") && isSchema(value)) {
      out[keyword] = outline(value, depth);
    } else if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((sub) => (isSchema(sub) ? outline(sub, depth) : sub));
    } else {
      out[keyword] = value;
    }
  }
  return inclusive(out);
}
