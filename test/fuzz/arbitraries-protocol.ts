/**
 * Protocol arbitraries for the fuzzer: portal envelopes (well-formed or with one part broken) and
 * malformed JSON-RPC requests (not JSON, wrong version, no method, wrong param types, batches, deep
 * nesting) with odd headers.
 */
import fc from "fast-check";
import { junk, nastyString } from "./arbitraries-hostile";

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
