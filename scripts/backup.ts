/**
 * `npm run backup`: saves a workspace as one JSONL file, through `workspace_export` (admin) page by page
 * (docs/export.md). The pages are written to `<out>.partial` and renamed to `<out>` once the trailer has
 * arrived, so `<out>` is always a whole export. If the workspace changes between two pages the export is
 * refused as stale: the script starts over, up to `--attempts` times (a backup is one consistent snapshot,
 * so a workspace under constant writes may need a quiet moment).
 *
 *   npm run backup -- --url <base> --workspace <ws> --out <file.jsonl> [--token T] [--page-chars N] [--attempts N]
 */
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import { parseArgs } from "node:util";
import { connect, describe, die, toolErrorOf } from "./lib/backup-cli.ts";

const SCRIPT = "backup";
const USAGE = `Usage: npm run backup -- --url <base URL> --workspace <name> --out <file.jsonl> [--token <token>] [--page-chars N] [--attempts N]

  --url         the server (e.g. http://127.0.0.1:8787, or https://branchmind.example.workers.dev)
  --workspace   the workspace to save
  --out         the file to write (JSONL; written as <out>.partial, renamed when complete)
  --token       an admin token (default: $BRANCHMIND_TOKEN; none for npm run dev)
  --page-chars  characters of lines per call (default and maximum 800000)
  --attempts    exports to start before giving up on a workspace that keeps changing (default 5)`;

/** The server's largest page (MAX_EXPORT_PAGE_CHARS) and the reserve it keeps beside a page in the budget. */
const MAX_PAGE_CHARS = 800_000;
const PAGE_RESERVE_CHARS = 4_000;

interface Page {
  jsonl: string;
  line_count: number;
  done: boolean;
  cursor: string | null;
}

interface Trailer {
  lines: number;
  rows: Record<string, number>;
  clocks: Record<string, number>;
  digest: string;
}

function option(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) die(SCRIPT, `${name} must be a whole number in [${min}, ${max}]`);
  return number;
}

async function main(): Promise<void> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        url: { type: "string" },
        workspace: { type: "string" },
        out: { type: "string" },
        token: { type: "string" },
        "page-chars": { type: "string" },
        attempts: { type: "string" },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    die(SCRIPT, `${(error as Error).message}\n${USAGE}`);
  }
  const out = values.out ?? die(SCRIPT, `--out is required\n${USAGE}`);
  const { client, workspace, endpoint } = connect(SCRIPT, values);
  const pageChars = option(values["page-chars"], "--page-chars", MAX_PAGE_CHARS, 2_000, MAX_PAGE_CHARS);
  const attempts = option(values.attempts, "--attempts", 5, 1, 100);
  const partial = `${out}.partial`;

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const file = openSync(partial, "w");
    let cursor: string | null = null;
    let pages = 0;
    let lines = 0;
    let bytes = 0;
    let last = "";
    try {
      for (;;) {
        const args = { workspace, max_chars: pageChars + PAGE_RESERVE_CHARS, ...(cursor === null ? {} : { cursor }) };
        const page = (await client.callTool("workspace_export", args)).value as unknown as Page;
        writeSync(file, page.jsonl);
        pages++;
        lines += page.line_count;
        bytes += Buffer.byteLength(page.jsonl);
        last = page.jsonl;
        if (pages % 10 === 0 || page.done) process.stderr.write(`backup: ${pages} pages, ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB\n`);
        if (page.done) break;
        cursor = page.cursor;
      }
    } catch (error) {
      closeSync(file);
      if (toolErrorOf(error)?.code === "EXPORT_STALE" && attempt < attempts) {
        process.stderr.write(`backup: ${workspace} changed during the export (attempt ${attempt} of ${attempts}); starting over\n`);
        continue;
      }
      die(SCRIPT, `${endpoint}: ${describe(error)}`);
    }
    closeSync(file);
    renameSync(partial, out);
    const trailer = JSON.parse(last.trimEnd().split("\n").pop() as string) as Trailer;
    const rows = Object.values(trailer.rows).reduce((sum, count) => sum + count, 0);
    process.stdout.write(
      `${out}: ${workspace}, ${trailer.lines} lines, ${rows} rows, tick ${trailer.clocks.tick ?? 0}, seq ${trailer.clocks.seq ?? 0}, digest ${trailer.digest}, ${bytes} bytes\n`,
    );
    return;
  }
}

await main();
