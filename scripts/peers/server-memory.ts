/**
 * The server-memory side of the peer benchmark: the official MCP knowledge-graph memory server
 * (`@modelcontextprotocol/server-memory`, a devDependency), run as a child process on stdio
 * (`stdio.ts`). Each size gets a fresh JSONL file (`MEMORY_FILE_PATH`) in the run's temporary
 * directory and a fresh server process.
 *
 * - seeding: `create_entities` with a batch of entities per call;
 * - write: `create_entities` with one entity;
 * - open by id: `open_nodes` with one name;
 * - search: `search_nodes` (a case-insensitive substring of name, type and observations), one call;
 * - ping: the protocol's `ping` request (answered by the SDK, no tool, no file access).
 *
 * The server reads and parses its whole file on every call and rewrites it on every write, so its
 * calls grow with the store; the per-call timeout (`--call-timeout-seconds`) bounds each one.
 */
import { appendFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Entity } from "./entities.ts";
import { type BurstResult, check, fireBurst, type SearchResult, type SeedResult, SeedTally, type Side, type Timed } from "./side.ts";
import { peerTempDir, StdioPeer } from "./stdio.ts";

/** The server's entry point, relative to the project root. */
const SERVER_ENTRY = "node_modules/@modelcontextprotocol/server-memory/dist/index.js";

/** The installed server's version (from its package.json). */
function serverVersion(root: string): string {
  const manifest = join(root, SERVER_ENTRY, "..", "..", "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version ?? "unknown";
}

export class ServerMemorySide implements Side {
  readonly name = "server-memory" as const;
  readonly seedsDirectly = true;
  readonly description: string;
  private readonly root: string;
  private readonly callTimeoutMs: number;
  private readonly version: string;
  private server: StdioPeer | undefined;
  private file = "";
  private size = 0;

  constructor(root: string, callTimeoutMs: number) {
    this.root = root;
    this.version = serverVersion(root);
    this.callTimeoutMs = callTimeoutMs;
    this.description = `@modelcontextprotocol/server-memory ${this.version}, MCP over stdio (MCP SDK Client), Node ${process.version}, JSONL file`;
  }

  async prepare(size: number): Promise<void> {
    this.size = size;
    const dir = peerTempDir();
    this.file = join(dir, `memory-${size}.jsonl`);
    rmSync(this.file, { force: true });
    this.server = await StdioPeer.start(
      this.name,
      { entry: join(this.root, SERVER_ENTRY), env: { MEMORY_FILE_PATH: this.file }, cwd: dir },
      this.callTimeoutMs,
    );
  }

  private async call(name: string, args: Record<string, unknown>): Promise<{ ms: number; value: Record<string, unknown> }> {
    if (this.server === undefined) throw new Error(`${this.name}: the server is not running`);
    const { ms, answer } = await this.server.call(name, args);
    if (answer.structuredContent === undefined) throw new Error(`${this.name}: ${name} answered without structuredContent`);
    return { ms, value: answer.structuredContent };
  }

  /**
   * `create_entities` per batch until `budgetMs` has passed; then the remaining batches go straight into
   * the JSONL file, as lines the server itself writes. The server keeps nothing in memory between
   * calls (every call reads the whole file), and no call is in flight, so it sees the same store as if
   * `create_entities` had written them. Its `create_entities` checks each new name against every
   * existing entity by a linear scan, so seeding through it grows with the square of the store.
   */
  async seed(batches: Iterable<Entity[]>, budgetMs: number): Promise<SeedResult> {
    const tally = new SeedTally();
    let written = 0;
    for (const batch of batches) {
      if (tally.elapsedMs() > budgetMs) {
        const directStart = performance.now();
        const lines = batch.map((entity) => JSON.stringify({ type: "entity", ...entity })).join("\n");
        appendFileSync(this.file, written === 0 ? lines : `\n${lines}`);
        written += batch.length;
        tally.direct(batch.length, performance.now() - directStart);
        continue;
      }
      const call = await this.call("create_entities", { entities: batch });
      const created = (call.value.entities ?? []) as unknown[];
      check(created.length === batch.length, this.name, `create_entities created ${created.length} of ${batch.length} entities`);
      written += batch.length;
      tally.call(batch.length, call.ms);
    }
    return tally.result(this.size);
  }

  async ping(): Promise<Timed> {
    if (this.server === undefined) throw new Error(`${this.name}: the server is not running`);
    return this.server.ping();
  }

  async write(entity: Entity): Promise<Timed> {
    const { ms, value } = await this.call("create_entities", { entities: [entity] });
    const created = (value.entities ?? []) as Entity[];
    check(
      created.length === 1 && created[0]?.name === entity.name,
      this.name,
      `create_entities of ${entity.name} created ${created.length}`,
    );
    return { ms };
  }

  async open(entity: Entity): Promise<Timed> {
    const { ms, value } = await this.call("open_nodes", { names: [entity.name] });
    const found = (value.entities ?? []) as Entity[];
    const got = found[0];
    check(
      found.length === 1 &&
        got?.name === entity.name &&
        got.entityType === entity.entityType &&
        JSON.stringify(got.observations) === JSON.stringify(entity.observations),
      this.name,
      `open_nodes [${entity.name}] returned ${JSON.stringify(found).slice(0, 300)}`,
    );
    return { ms };
  }

  async search(term: string): Promise<SearchResult> {
    const { ms, value } = await this.call("search_nodes", { query: term });
    return { ms, calls: 1, names: ((value.entities ?? []) as Entity[]).map((entity) => entity.name) };
  }

  burst(entities: Entity[]): Promise<BurstResult> {
    return fireBurst(
      entities,
      (entity) => this.write(entity),
      async (names) => {
        const { value } = await this.call("open_nodes", { names });
        return new Set(((value.entities ?? []) as Entity[]).map((entity) => entity.name));
      },
    );
  }

  async finish(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    rmSync(this.file, { force: true });
  }

  /** The server's start time and its file's size (what every call reads, and every write rewrites). */
  facts(): Record<string, unknown> {
    let bytes: number | null = null;
    try {
      bytes = statSync(this.file).size;
    } catch {
      // No file yet.
    }
    return {
      server_version: this.version,
      memory_file_bytes: bytes,
      server_start_ms: this.server === undefined ? null : Math.round(this.server.startMs * 10) / 10,
    };
  }
}
