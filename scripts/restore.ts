/**
 * `npm run restore`: rebuilds a workspace from a file written by `npm run backup`, through
 * `workspace_import {jsonl}` (admin), into a workspace that was never written to (docs/export.md). Lines
 * go in order, in calls of at most `--chunk-chars`; the server tracks the next line it expects, so the
 * script resumes an interrupted restore by itself: run it again with the same arguments. A call that
 * failed on the way (network, timeout) is sent again; if it had in fact been applied, the server says
 * which line comes next and the script skips to it. `--abort` gives up an unfinished restore instead,
 * emptying the workspace.
 *
 *   npm run restore -- --url <base> --workspace <ws> --in <file.jsonl> [--token T] [--chunk-chars N] [--abort]
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { type Connection, connect, describe, die, toolErrorOf, transportBytes } from "./lib/backup-cli.ts";

const SCRIPT = "restore";
const USAGE = `Usage: npm run restore -- --url <base URL> --workspace <name> --in <file.jsonl> [--token <token>] [--chunk-chars N] [--abort]

  --url          the server (e.g. http://127.0.0.1:8787, or https://branchmind.example.workers.dev)
  --workspace    the workspace to rebuild: empty, or holding an unfinished restore of the same file
  --in           a file written by npm run backup
  --token        an admin token (default: $BRANCHMIND_TOKEN; none for npm run dev)
  --chunk-chars  bytes of lines per call, as they travel (default and maximum 800000)
  --abort        give up the workspace's unfinished restore (it is emptied) and exit`;

/** The request body cap is 1 MiB; 800,000 bytes of escaped lines leave room for the call's envelope. */
const MAX_CHUNK_BYTES = 800_000;
/** Sends of one chunk that failed without a typed answer (network, timeout) before giving up. */
const SEND_ATTEMPTS = 4;

interface Outcome {
  status: string;
  next_line: number | null;
  tick?: number;
  seq?: number;
}

/**
 * Sends lines [first, first + lines.length); returns the line the server expects next (null: complete).
 * When the server is further on (an earlier run, or a send whose answer was lost), what it already has
 * is dropped from the chunk.
 */
async function send(connection: Connection, first: number, lines: string[]): Promise<number | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await connection.client.callTool("workspace_import", {
        workspace: connection.workspace,
        jsonl: `${lines.join("\n")}\n`,
      });
      const outcome = (answer.value as { restore: Outcome }).restore;
      if (outcome.status === "complete") {
        process.stdout.write(
          `${connection.workspace}: restored, ${first + lines.length} lines, tick ${outcome.tick}, seq ${outcome.seq}\n`,
        );
      }
      return outcome.next_line;
    } catch (error) {
      const typed = toolErrorOf(error);
      if (typed?.code === "RESTORE_OUT_OF_ORDER") {
        const expected = typed.details?.expected_line;
        if (expected === null) {
          process.stdout.write(`${connection.workspace}: ${typed.message}\n`);
          return null;
        }
        if (typeof expected === "number" && expected >= first + lines.length) return expected;
        if (typeof expected === "number" && expected > first) {
          lines = lines.slice(expected - first);
          first = expected;
          attempt = 0;
          continue;
        }
        die(
          SCRIPT,
          `${typed.message} The restore expects line ${String(expected)}, before this file position: check that --in is the file this restore began with.`,
        );
      }
      if (typed !== undefined || attempt >= SEND_ATTEMPTS) die(SCRIPT, `lines ${first}–${first + lines.length - 1}: ${describe(error)}`);
      process.stderr.write(`restore: lines ${first}–${first + lines.length - 1}: ${describe(error)}; sending again\n`);
    }
  }
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        url: { type: "string" },
        workspace: { type: "string" },
        in: { type: "string" },
        token: { type: "string" },
        "chunk-chars": { type: "string" },
        abort: { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    die(SCRIPT, `${(error as Error).message}\n${USAGE}`);
  }
  const connection = connect(SCRIPT, values as Record<string, string | undefined>);
  if (values.abort === true) {
    try {
      await connection.client.callTool("workspace_import", { workspace: connection.workspace, abort_restore: true });
    } catch (error) {
      die(SCRIPT, describe(error));
    }
    process.stdout.write(`${connection.workspace}: the unfinished restore was given up; the workspace is empty\n`);
    return;
  }
  const input = typeof values.in === "string" ? values.in : die(SCRIPT, `--in is required\n${USAGE}`);
  const limit = values["chunk-chars"] === undefined ? MAX_CHUNK_BYTES : Number(values["chunk-chars"]);
  if (!Number.isInteger(limit) || limit < 1_000 || limit > MAX_CHUNK_BYTES)
    die(SCRIPT, `--chunk-chars must be a whole number in [1000, ${MAX_CHUNK_BYTES}]`);

  // `expected` is the server's next line once known; lines before it are skipped.
  let expected = 0;
  let position = 0;
  let chunk: string[] = [];
  let chunkFirst = 0;
  let chunkBytes = 0;
  let calls = 0;
  const flush = async (): Promise<boolean> => {
    if (chunk.length === 0) return true;
    const next = await send(connection, chunkFirst, chunk);
    calls++;
    if (calls % 10 === 0) process.stderr.write(`restore: ${calls} calls, next line ${next ?? "(done)"}\n`);
    chunk = [];
    chunkBytes = 0;
    if (next === null) return false;
    expected = next;
    return true;
  };
  const lines = createInterface({ input: createReadStream(input, { encoding: "utf8" }), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    const index = position++;
    if (index < expected || line === "") continue;
    const size = transportBytes(line);
    if (size > MAX_CHUNK_BYTES)
      die(SCRIPT, `line ${index} takes ${size} bytes as it travels, above the ${MAX_CHUNK_BYTES} one call may carry`);
    if (chunk.length > 0 && chunkBytes + size > limit) {
      if (!(await flush())) return;
      if (index < expected) continue;
    }
    if (chunk.length === 0) chunkFirst = index;
    chunk.push(line);
    chunkBytes += size;
  }
  if (!(await flush())) return;
  die(
    SCRIPT,
    `${input} ended at line ${position - 1} without completing the restore (the server expects line ${expected}): the file is incomplete`,
  );
}

await main();
