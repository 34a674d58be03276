/**
 * Hostile leaves for the fuzzer: strings and numbers that have broken servers before, JSON-ish junk of
 * any shape, and a value of the wrong type for a schema.
 */
import fc from "fast-check";
import { type JsonSchema, typesOf } from "./arbitraries-schema";

/** A huge hostile string: beyond every field cap, well under the 1 MiB body cap. */
const HUGE_STRING = 300_000;

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
export function wrongTyped(schema: JsonSchema): fc.Arbitrary<unknown> {
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
