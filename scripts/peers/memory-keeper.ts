/**
 * The memory-keeper side of the peer benchmark: `mcp-memory-keeper` (context items, channels,
 * checkpoints and search, in SQLite through better-sqlite3), installed on demand at a pinned version
 * (`install.ts`) and run with this Node as a child process on stdio (`stdio.ts`). Each size gets a
 * fresh data directory (`DATA_DIR`, where it keeps `context.db`) and a fresh server process.
 *
 * An entity is one context item: key = name, value = the observations joined by newlines (as our
 * node text), channel = entity type (its free-form grouping field: its `category` only takes a fixed
 * list, so every item is category `note`).
 *
 * - seeding: `context_batch_save`, at most `BATCH_SAVE_MAX` items per call (its own limit);
 * - write: `context_save` with one item;
 * - open by id: `context_get {key}`;
 * - search: `context_search {query, includeMetadata: true, sort: "key_asc", limit, offset}`, following
 *   `offset` until the items returned reach its `totalCount`;
 * - ping: the protocol's `ping` request (answered by the SDK, no tool, no database access).
 *
 * Its answers are text (JSON, or a sentence), with no structuredContent, and a failed save answers a
 * sentence without `isError`; so every answer is parsed and checked for what it must say.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Entity } from "./entities.ts";
import { ensurePeerInstalled, PEER_INSTALLS_DIR, type PeerInstall, type PeerPackage } from "./install.ts";
import { type BurstResult, check, fireBurst, type SearchResult, type SeedResult, SeedTally, type Side, type Timed } from "./side.ts";
import { peerTempDir, StdioPeer, textOf } from "./stdio.ts";

/** The pinned peer: its name, exact version, and the native module that must load with this Node. */
export const MEMORY_KEEPER: PeerPackage = {
  name: "mcp-memory-keeper",
  version: "0.14.1",
  native: "better-sqlite3",
  check:
    "const D = require('better-sqlite3'); const v = require('better-sqlite3/package.json').version;" +
    "const s = new D(':memory:').prepare('select sqlite_version() as v').get().v;" +
    "process.stdout.write('better-sqlite3 ' + v + ' loads, SQLite ' + s);",
};
/** `context_batch_save` refuses batches of more than 100 items. */
const BATCH_SAVE_MAX = 100;
/** Items per search page: the same as our side's page. */
const SEARCH_PAGE_LIMIT = 50;
/** Its `category` takes only task, decision, progress, note, error or warning: every entity is a note. */
const CATEGORY = "note";
/** The tools the mapping uses; `prepare` checks the server lists them all. */
const TOOLS = ["context_save", "context_get", "context_search", "context_batch_save"];

interface Item {
  key: string;
  value: string;
  category: string | null;
  channel: string;
}

const itemValue = (entity: Entity): string => entity.observations.join("\n");
const itemOf = (entity: Entity) => ({ key: entity.name, value: itemValue(entity), category: CATEGORY, channel: entity.entityType });

export class MemoryKeeperSide implements Side {
  readonly name = "memory-keeper" as const;
  readonly seedsDirectly = false;
  readonly description: string;
  private readonly install: PeerInstall;
  private readonly callTimeoutMs: number;
  private server: StdioPeer | undefined;
  private dataDir = "";
  private size = 0;
  private toolCount = 0;

  private constructor(install: PeerInstall, callTimeoutMs: number) {
    this.install = install;
    this.callTimeoutMs = callTimeoutMs;
    this.description =
      `${MEMORY_KEEPER.name} ${MEMORY_KEEPER.version}, MCP over stdio (MCP SDK Client), Node ${process.version}, ` +
      `SQLite file through ${install.loaded.replace(" loads", "")} (installed on demand)`;
  }

  /** Installs the peer (or reuses its install) and makes the side. */
  static async create(root: string, callTimeoutMs: number): Promise<MemoryKeeperSide> {
    return new MemoryKeeperSide(await ensurePeerInstalled(root, MEMORY_KEEPER), callTimeoutMs);
  }

  async prepare(size: number): Promise<void> {
    this.size = size;
    this.dataDir = join(peerTempDir(), `memory-keeper-${size}`);
    const env = {
      DATA_DIR: this.dataDir,
      // All its tools, and no profile file from the home directory.
      TOOL_PROFILE: "full",
      TOOL_PROFILE_CONFIG: join(this.dataDir, "no-profile-config.json"),
    };
    // It would make DATA_DIR itself; it runs in it, as its own launcher does.
    mkdirSync(this.dataDir, { recursive: true });
    this.server = await StdioPeer.start(
      this.name,
      { entry: join(this.install.packageDir, "dist", "index.js"), env, cwd: this.dataDir },
      this.callTimeoutMs,
    );
    const tools = await this.server.toolNames();
    this.toolCount = tools.length;
    const missing = TOOLS.filter((tool) => !tools.includes(tool));
    check(missing.length === 0, this.name, `the server does not list ${missing.join(", ")}`);
  }

  /** A tool call whose answer is text; `json` parses it, and throws with the text when it is not JSON. */
  private async call(name: string, args: Record<string, unknown>): Promise<{ ms: number; text: string }> {
    if (this.server === undefined) throw new Error(`${this.name}: the server is not running`);
    const { ms, answer } = await this.server.call(name, args);
    return { ms, text: textOf(answer) };
  }

  private json<T>(tool: string, text: string): T {
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${this.name}: ${tool} answered ${JSON.stringify(text.slice(0, 300))}`);
    }
  }

  /** `context_batch_save` in slices of at most `BATCH_SAVE_MAX`, until `budgetMs` has passed: then it stops short. */
  async seed(batches: Iterable<Entity[]>, budgetMs: number): Promise<SeedResult> {
    const tally = new SeedTally();
    for (const batch of batches) {
      for (let start = 0; start < batch.length; start += BATCH_SAVE_MAX) {
        // No writing into its database from outside: a seeding past its limit stops short.
        if (tally.elapsedMs() > budgetMs) return tally.result(this.size);
        const slice = batch.slice(start, start + BATCH_SAVE_MAX);
        const { ms, text } = await this.call("context_batch_save", { items: slice.map(itemOf) });
        const answer = this.json<{ succeeded?: number; failed?: number; results?: { key: string; action?: string }[] }>(
          "context_batch_save",
          text,
        );
        const created = (answer.results ?? []).filter((result) => result.action === "created").length;
        check(
          answer.succeeded === slice.length && answer.failed === 0 && created === slice.length,
          this.name,
          `context_batch_save created ${created} of ${slice.length} items: ${text.slice(0, 300)}`,
        );
        tally.call(slice.length, ms);
      }
    }
    return tally.result(this.size);
  }

  async ping(): Promise<Timed> {
    if (this.server === undefined) throw new Error(`${this.name}: the server is not running`);
    return this.server.ping();
  }

  async write(entity: Entity): Promise<Timed> {
    const { ms, text } = await this.call("context_save", itemOf(entity));
    // It answers "Saved: <key>\nCategory: …\nChannel: …", or a sentence saying why it failed.
    check(
      text.startsWith(`Saved: ${entity.name}\n`) && text.includes(`\nChannel: ${entity.entityType}\n`),
      this.name,
      `context_save of ${entity.name} answered ${JSON.stringify(text.slice(0, 300))}`,
    );
    return { ms };
  }

  /** `context_get {key}`: the items with that key (none: an empty list). */
  private async get(key: string): Promise<{ ms: number; items: Item[] }> {
    const { ms, text } = await this.call("context_get", { key });
    if (text === "No matching context found") return { ms, items: [] };
    return { ms, items: this.json<{ items?: Item[] }>("context_get", text).items ?? [] };
  }

  async open(entity: Entity): Promise<Timed> {
    const { ms, items } = await this.get(entity.name);
    const got = items[0];
    check(
      items.length === 1 &&
        got?.key === entity.name &&
        got.value === itemValue(entity) &&
        got.channel === entity.entityType &&
        got.category === CATEGORY,
      this.name,
      `context_get ${entity.name} returned ${JSON.stringify(items).slice(0, 300)}`,
    );
    return { ms };
  }

  /** Pages by `offset` (sorted by key, so pages neither overlap nor skip) until `totalCount` items came back. */
  async search(term: string): Promise<SearchResult> {
    const started = performance.now();
    const names: string[] = [];
    let calls = 0;
    let total = 0;
    do {
      const args = { query: term, includeMetadata: true, sort: "key_asc", limit: SEARCH_PAGE_LIMIT, offset: names.length };
      const { text } = await this.call("context_search", args);
      calls++;
      if (text.startsWith("No results found")) {
        check(names.length === 0, this.name, `context_search "${term}" ran out at offset ${names.length}`);
        break;
      }
      const page = this.json<{ items?: { key: string }[]; totalCount?: number }>("context_search", text);
      const keys = (page.items ?? []).map((item) => item.key);
      check(typeof page.totalCount === "number" && keys.length > 0, this.name, `context_search page: ${text.slice(0, 300)}`);
      total = page.totalCount ?? 0;
      names.push(...keys);
    } while (names.length < total);
    check(new Set(names).size === names.length, this.name, `context_search "${term}" returned a key twice`);
    return { ms: performance.now() - started, calls, names };
  }

  burst(entities: Entity[]): Promise<BurstResult> {
    return fireBurst(
      entities,
      (entity) => this.write(entity),
      async (names) => {
        const found = new Set<string>();
        for (const name of names) {
          const { items } = await this.get(name);
          if (items.length === 1 && items[0]?.key === name) found.add(name);
        }
        return found;
      },
    );
  }

  async finish(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** The server's start, its database's size on disk (with the write-ahead log), and the install. */
  facts(): Record<string, unknown> {
    let bytes: number | null = null;
    for (const file of ["context.db", "context.db-wal"]) {
      try {
        bytes = (bytes ?? 0) + statSync(join(this.dataDir, file)).size;
      } catch {
        // Not there (yet).
      }
    }
    return {
      server_version: MEMORY_KEEPER.version,
      database_bytes: bytes,
      server_start_ms: this.server === undefined ? null : Math.round(this.server.startMs * 10) / 10,
      tools_listed: this.toolCount,
      batch_save_max: BATCH_SAVE_MAX,
      search_page_limit: SEARCH_PAGE_LIMIT,
      install: {
        dir: `${PEER_INSTALLS_DIR}/${MEMORY_KEEPER.name}-${MEMORY_KEEPER.version}`,
        reused: this.install.reused,
        install_s: this.install.install_s,
        installed_at: this.install.installed_at,
        loaded: this.install.loaded,
        built_against_node_headers: this.install.headers,
      },
    };
  }
}
