/**
 * fast-check arbitraries for the fuzzer (`test/fuzz.test.ts`), built from a command's input JSON Schema
 * (`z.toJSONSchema(command.input, {io: "input"})`): no catalog, no I/O, so the unit check
 * (`arbitraries.test.ts`) runs them against the zod schemas directly.
 *
 * - `validArgs`: values honouring type, const, enum, anyOf/oneOf, pattern, min/max length, bounds,
 *   items and required properties. Strings are drawn from known values that fit (ids that exist in the
 *   fuzz workspace, the field's realistic placeholder) as often as from generated ones, so calls get
 *   past "unknown id" into the handlers.
 * - `mutatedArgs`: a valid object with one mutation: a required key dropped, a value of the wrong type,
 *   an unknown key, a hostile string (control characters, lone surrogates, bidi marks, SQL, huge), a
 *   hostile number (negative, fractional, beyond 2^53, NaN/Infinity — JSON sends those as null), junk
 *   at a random depth, or arguments that are not an object at all.
 * - `jsonRpcJunk`: malformed JSON-RPC requests (not JSON, wrong version, no method, wrong param types,
 *   batches, deep nesting) with odd headers.
 */
import fc from "fast-check";

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

/** Generated strings stay short unless the boundary branch asks for the longest legal one. */
const SHORT_STRING = 24;
/** The boundary branch builds strings up to this long: a note's cap (256 KB) in "é" is 512 KB, one fits the body cap. */
const MAX_BOUNDARY_STRING = 262_144;
/** Arrays: up to this many items above their minimum. */
const EXTRA_ITEMS = 3;
/** A huge hostile string: beyond every field cap, well under the 1 MiB body cap. */
const HUGE_STRING = 300_000;

const regexCache = new Map<string, RegExp | null>();

function regexOf(pattern: string): RegExp | null {
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

function fitsValue(value: unknown, schema: JsonSchema): boolean {
  if ("const" in schema) return value === schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  const types = typesOf(schema);
  if (typeof value === "string") return (types.length === 0 || types.includes("string")) && fitsString(value, schema);
  if (typeof value === "number") return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
  if (typeof value === "boolean") return types.includes("boolean");
  if (value === null) return types.includes("null");
  return false;
}

function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (schema.properties !== undefined) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return [];
}

function variantsOf(schema: JsonSchema): JsonSchema[] | undefined {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(variants) && variants.length > 0 ? variants : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Hostile leaves

/** Strings that have broken servers before: control characters, surrogates, bidi, SQL, paths, names. */
const NASTY_CONSTANTS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\n\r\t",
  "\u007f",
  "\u202eevil",
  "\u2028\u2029",
  "\ufeff",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "💥🧪",
  "e\u0301",
  "İı",
  "ｆｕｌｌ",
  "%00",
  "%2F..%2F",
  "../../etc/passwd",
  "/",
  "a//b",
  "' OR 1=1 --",
  '"; DROP TABLE journal; --',
  "%",
  "_",
  "*",
  "**",
  "|",
  "a|b",
  "\\",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "NaN",
  "-1",
  "0",
  "1e999",
  "null",
  "undefined",
  "true",
  "{}",
  "[]",
  "main",
  "TASK-000",
  "TASK-999999999999999999999",
  "STEP-",
  "CARD-0",
  "CARD--1",
  "R0",
  "JOB-001@999999999999999",
  "s:0.s:99999999999999999999",
  "notes@-1",
  "notes@9007199254740993",
  "code:../x#L0-L0",
  "a:",
  "kb/main",
];

const controlChar = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_CONSTANTS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: controlChar, minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 200, maxLength: 600 }) },
  { weight: 1, arbitrary: fc.constantFrom(5_000, 70_000, HUGE_STRING).map((length) => "x".repeat(length)) },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      0,
      -0,
      -1,
      1,
      0.5,
      -0.5,
      1.0000001,
      2 ** 31,
      2 ** 31 - 1,
      2 ** 32,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      1e21,
      1e308,
      -1e308,
      Number.MIN_VALUE,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

/** Arbitrary JSON-ish junk of any shape, nested a few levels (objects may carry `__proto__`). */
export const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "op", "id")), tie("value"), {
      maxKeys: 4,
    }),
  ),
})).value;

/** A value that is not of the schema's type (a string where a number goes, an object where a string goes, …). */
function wrongTyped(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!types.includes("string")) candidates.push(nastyString);
  if (!types.includes("number") && !types.includes("integer")) candidates.push(nastyNumber);
  if (types.includes("integer")) candidates.push(fc.constantFrom(0.5, -0.25, 1e-9, 2 ** 53 + 2));
  if (!types.includes("boolean")) candidates.push(fc.boolean());
  if (!types.includes("null")) candidates.push(fc.constant(null));
  if (!types.includes("array")) candidates.push(fc.array(junk, { maxLength: 3 }));
  if (!types.includes("object")) candidates.push(fc.dictionary(fc.string({ maxLength: 6 }), junk, { maxKeys: 3 }));
  candidates.push(junk);
  return fc.oneof(...candidates);
}

// ---------------------------------------------------------------------------------------------------
// Valid values

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

// ---------------------------------------------------------------------------------------------------
// Mutations

type Path = (string | number)[];

/** Every path into a JSON value (the root excluded), parents before children. */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      out.push([...prefix, index]);
      pathsOf(item, [...prefix, index], out);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push([...prefix, key]);
      pathsOf(item, [...prefix, key], out);
    }
  }
  return out;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function setAt(root: unknown, path: Path, replace: (old: unknown) => unknown | typeof DELETE): unknown {
  const copy = clone(root);
  let node = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  const next = replace(node[last]);
  if (next === DELETE) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else {
    Object.defineProperty(node, last, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const DELETE = Symbol("delete");

export type MutationKind =
  | "drop-required"
  | "wrong-type"
  | "extra-key"
  | "nasty-string"
  | "nasty-number"
  | "deep-junk"
  | "deep-delete"
  | "not-an-object";

export interface Mutated {
  mutation: MutationKind;
  args: unknown;
}

/** A valid object with exactly one mutation (most of them make it invalid; some stay legal and go deeper). */
export function mutatedArgs(schema: JsonSchema, options: GenOptions = {}): fc.Arbitrary<Mutated> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const stringFields = names.filter((name) => typesOf(properties[name] ?? {}).includes("string") || variantsOf(properties[name] ?? {}));
  const numberFields = names.filter((name) => {
    const types = typesOf(properties[name] ?? {});
    return types.includes("integer") || types.includes("number");
  });
  const valid = validArgs(schema, options);
  const mutations: fc.Arbitrary<Mutated>[] = [
    fc
      .tuple(valid, fc.constantFrom(...(names.length > 0 ? names : ["x"])))
      .chain(([args, name]) =>
        wrongTyped(properties[name] ?? {}).map((value) => ({ mutation: "wrong-type" as const, args: { ...args, [name]: value } })),
      ),
    fc
      .tuple(
        valid,
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "prototype", "args", "op", "")),
        junk,
      )
      .map(([args, key, value]) => ({
        mutation: "extra-key" as const,
        args: names.includes(key) ? args : (setAt(args, [key], () => value) as Record<string, unknown>),
      })),
    fc
      .tuple(valid, nastyString, fc.constantFrom(...(stringFields.length > 0 ? stringFields : ["workspace"])))
      .map(([args, value, name]) => ({
        mutation: "nasty-string" as const,
        args: { ...args, [name]: value },
      })),
    fc.tuple(valid, nastyNumber, fc.constantFrom(...(numberFields.length > 0 ? numberFields : ["limit"]))).map(([args, value, name]) => ({
      mutation: "nasty-number" as const,
      args: { ...args, [name]: value },
    })),
    valid.chain((args) => {
      const paths = pathsOf(args);
      if (paths.length === 0) return junk.map((value) => ({ mutation: "deep-junk" as const, args: { ...args, extra: value } }));
      return fc.tuple(fc.constantFrom(...paths), fc.oneof(junk, nastyString, nastyNumber)).map(([path, value]) => ({
        mutation: "deep-junk" as const,
        args: setAt(args, path, () => value),
      }));
    }),
    valid.chain((args) => {
      const paths = pathsOf(args).filter((path) => path.length > 1);
      if (paths.length === 0) return fc.constant({ mutation: "deep-delete" as const, args: {} });
      return fc.constantFrom(...paths).map((path) => ({ mutation: "deep-delete" as const, args: setAt(args, path, () => DELETE) }));
    }),
    fc.oneof(nastyString, nastyNumber, fc.array(junk, { maxLength: 3 }), fc.constant(null), fc.boolean()).map((args) => ({
      mutation: "not-an-object" as const,
      args,
    })),
  ];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([args, name]) => {
        const { [name]: _dropped, ...rest } = args;
        return { mutation: "drop-required" as const, args: rest };
      }),
    );
  }
  return fc.oneof(...mutations);
}

export interface FuzzedArgs {
  /** "valid" (honours the JSON Schema) or the mutation applied. */
  kind: "valid" | MutationKind;
  args: unknown;
}

/** Valid arguments about half of the time, else one mutation of them. */
export function fuzzArgs(schema: JsonSchema, options: GenOptions = {}): fc.Arbitrary<FuzzedArgs> {
  return fc.oneof(
    { weight: 1, arbitrary: validArgs(schema, options).map((args) => ({ kind: "valid" as const, args })) },
    { weight: 1, arbitrary: mutatedArgs(schema, options).map(({ mutation, args }) => ({ kind: mutation, args })) },
  );
}

// ---------------------------------------------------------------------------------------------------
// Portal envelopes

export interface EnvelopeOptions {
  /** The portal's ops (golden ops and `call`). */
  ops: readonly string[];
  /** Command names `cmd` may take (any accepted name). */
  commands: readonly string[];
  /** Arguments for a command name; junk for names it does not know. */
  argsFor: (cmd: string | undefined, op: string | undefined) => fc.Arbitrary<unknown>;
  workspace: string;
}

/**
 * `{workspace?, op, cmd?, args, budget_profile?, view?}`: a well-formed envelope (a golden op, or `call`
 * with a command name; args for that command) two times out of three, else one part of it broken.
 */
export function envelope(options: EnvelopeOptions): fc.Arbitrary<unknown> {
  const golden = options.ops.filter((op) => op !== "call");
  const target = fc.oneof(
    ...(golden.length > 0 ? [fc.constantFrom(...golden).map((op) => ({ op, cmd: undefined as string | undefined }))] : []),
    fc.constantFrom(...options.commands).map((cmd) => ({ op: "call", cmd: cmd as string | undefined })),
  );
  const wellFormed = target.chain(({ op, cmd }) =>
    fc
      .record(
        {
          args: options.argsFor(cmd, op),
          budget_profile: fc.constantFrom("portal", "default", "audit"),
          view: fc.constantFrom("compact", "audit", "full", "smart"),
        },
        { requiredKeys: ["args"] },
      )
      .map((rest) => ({ workspace: options.workspace, op, ...(cmd === undefined ? {} : { cmd }), ...rest }) as Record<string, unknown>),
  );
  const broken = fc
    .tuple(
      wellFormed,
      fc.oneof(
        fc.constant(["op", undefined] as [string, unknown]),
        fc.constantFrom(...options.commands).map((name) => ["op", name] as [string, unknown]),
        nastyString.map((value) => ["op", value] as [string, unknown]),
        nastyString.map((value) => ["cmd", value] as [string, unknown]),
        fc.constant(["cmd", undefined] as [string, unknown]),
        nastyString.map((value) => ["workspace", value] as [string, unknown]),
        fc.oneof(junk, fc.constant(null)).map((value) => ["args", value] as [string, unknown]),
        fc.constantFrom("huge", "", "PORTAL").map((value) => ["budget_profile", value] as [string, unknown]),
        nastyString.map((value) => ["view", value] as [string, unknown]),
        nastyString.map((value) => ["id", value] as [string, unknown]),
        junk.map((value) => ["unknown_field", value] as [string, unknown]),
        junk.map((value) => ["__proto__", value] as [string, unknown]),
      ),
    )
    .map(([valid, [key, value]]) => {
      const out = { ...valid };
      if (value === undefined) delete out[key];
      else Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      return out;
    });
  return fc.oneof({ weight: 4, arbitrary: wellFormed }, { weight: 2, arbitrary: broken }, { weight: 1, arbitrary: junk });
}

// ---------------------------------------------------------------------------------------------------
// Malformed JSON-RPC

export interface RawRequest {
  /** What it is, for reports. */
  label: string;
  body: string;
  headers: Record<string, string | undefined>;
}

const METHODS = [
  "tools/call",
  "tools/list",
  "initialize",
  "ping",
  "resources/list",
  "prompts/list",
  "notifications/initialized",
  "completion/complete",
  "logging/setLevel",
  "server/discover",
  "nope/nope",
  "",
  "tools/call/",
  "TOOLS/CALL",
  "__proto__",
];

const jsonRpcId = fc.oneof(
  fc.nat(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
  fc.constantFrom(1.5, -1, 2 ** 60),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.constant({}),
);

/** A JSON-RPC-shaped object with any one part wrong. */
const badMessage: fc.Arbitrary<unknown> = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 4, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: fc.constantFrom("1.0", "2", 2, null, "") }),
    id: jsonRpcId,
    method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: junk }),
    params: fc.oneof(
      fc.record({
        name: fc.oneof(fc.constantFrom("ping", "status", "notes_commit", "system", "tasks"), junk),
        arguments: fc.oneof(junk, fc.constant({})),
      }),
      fc.record({ name: fc.constant("ping"), arguments: fc.constant({}), _meta: junk }),
      junk,
    ),
  },
  { requiredKeys: [] },
);

/** Nested arrays or objects deeper than any parser should have to care about. */
const deepNesting = fc.tuple(fc.constantFrom(100, 1_000, 10_000), fc.boolean()).map(([depth, arrays]) => {
  const open = arrays ? "[" : '{"a":';
  const close = arrays ? "]" : "}";
  return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{"x":${open.repeat(depth)}1${close.repeat(depth)}}}}`;
});

const body: fc.Arbitrary<{ label: string; body: string }> = fc.oneof(
  fc.string({ maxLength: 60 }).map((text) => ({ label: "not JSON", body: text })),
  fc
    .constantFrom("{", "[1,", "\u0000", '{"jsonrpc":"2.0",}', "nul", "1", '"x"', "[]", "{}", "null", "true")
    .map((text) => ({ label: "bare JSON", body: text })),
  badMessage.map((message) => ({ label: "bad message", body: JSON.stringify(message) ?? "null" })),
  fc.array(badMessage, { minLength: 1, maxLength: 3 }).map((messages) => ({ label: "batch", body: JSON.stringify(messages) })),
  deepNesting.map((text) => ({ label: "deep nesting", body: text })),
);

export const jsonRpcJunk: fc.Arbitrary<RawRequest> = fc
  .record({
    body,
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json") },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          undefined,
          "text/plain",
          "application/json; charset=utf-16",
          "multipart/form-data",
          "application/x-www-form-urlencoded",
          "",
        ),
      },
    ),
    accept: fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json, text/event-stream") },
      { weight: 1, arbitrary: fc.constantFrom(undefined, "text/html", "application/json", "text/event-stream", "*/*") },
    ),
    version: fc.oneof(
      { weight: 6, arbitrary: fc.constant("2026-07-28") },
      { weight: 1, arbitrary: fc.constantFrom(undefined, "2025-11-25", "1999-01-01", "garbage") },
    ),
    mcpMethod: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
  })
  .map(({ body: { label, body: text }, contentType, accept, version, mcpMethod }) => ({
    label,
    body: text,
    headers: { "content-type": contentType, accept, "mcp-protocol-version": version, "mcp-method": mcpMethod },
  }));
