/**
 * Mutated arguments for the fuzzer: a valid object with exactly one mutation (a required key dropped,
 * a wrong type, an unknown key, a hostile string or number, junk or a deletion at any depth, not an
 * object at all), and `fuzzArgs`, valid half of the time.
 */
import fc from "fast-check";
import { junk, nastyNumber, nastyString, wrongTyped } from "./arbitraries-hostile";
import { type GenOptions, type JsonSchema, typesOf, variantsOf } from "./arbitraries-schema";
import { validArgs } from "./arbitraries-valid";

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
