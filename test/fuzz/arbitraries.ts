/**
 * fast-check arbitraries for the fuzzer (`test/fuzz-tools.test.ts`, `test/fuzz-protocol.test.ts`), built
 * from a command's input JSON Schema (`z.toJSONSchema(command.input, {io: "input"})`): no catalog, no
 * I/O, so the unit check (`arbitraries.test.ts`) runs them against the zod schemas directly. This entry
 * only re-exports them, from one module per thing they generate:
 *
 * - `validArgs` (arbitraries-valid.ts): values honouring type, const, enum, anyOf/oneOf, pattern,
 *   min/max length, bounds, items and required properties. Strings are drawn from known values that fit
 *   (ids that exist in the fuzz workspace, the field's realistic placeholder) as often as from generated
 *   ones, so calls get past "unknown id" into the handlers.
 * - `mutatedArgs`, `fuzzArgs` (arbitraries-mutations.ts): a valid object with one mutation: a required
 *   key dropped, a value of the wrong type, an unknown key, a hostile string (control characters, lone
 *   surrogates, bidi marks, SQL, huge), a hostile number (negative, fractional, beyond 2^53,
 *   NaN/Infinity — JSON sends those as null), junk at a random depth, or arguments that are not an
 *   object at all. The hostile leaves (`nastyString`, `nastyNumber`, `junk`) are in arbitraries-hostile.ts.
 * - `envelope`, `jsonRpcJunk` (arbitraries-protocol.ts): portal envelopes, and malformed JSON-RPC
 *   requests (not JSON, wrong version, no method, wrong param types, batches, deep nesting) with odd
 *   headers.
 * - The schema types and `fitsString` (arbitraries-schema.ts).
 */
export { junk, nastyNumber, nastyString } from "./arbitraries-hostile";
export { type FuzzedArgs, fuzzArgs, type Mutated, type MutationKind, mutatedArgs } from "./arbitraries-mutations";
export { type EnvelopeOptions, envelope, jsonRpcJunk, type RawRequest } from "./arbitraries-protocol";
export { fitsString, type GenOptions, type JsonSchema } from "./arbitraries-schema";
export { validArgs, validValue } from "./arbitraries-valid";
