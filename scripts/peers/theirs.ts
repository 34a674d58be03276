/**
 * Their side of the peer benchmark: the official MCP knowledge-graph memory server
 * (`@modelcontextprotocol/server-memory`, a devDependency), run as a child process on this machine and
 * spoken to over stdio with the MCP SDK's `Client` and `StdioClientTransport`. Each size gets a fresh
 * JSONL file (`MEMORY_FILE_PATH`) in a temporary directory and a fresh server process.
 *
 * - seeding: `create_entities` with a batch of entities per call;
 * - write: `create_entities` with one entity;
 * - open by id: `open_nodes` with one name;
 * - search: `search_nodes` (a case-insensitive substring of name, type and observations), one call;
 * - ping: the protocol's `ping` request (answered by the SDK, no tool, no file access).
 *
 * The server reads and parses its whole file on every call and rewrites it on every write, so its
 * calls grow with the store; the per-call timeout (`--call-timeout-seconds`) bounds each one. The
 * server processes and the temporary directory go away with `finish`, on exit, and on Ctrl-C.
 */
import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Entity } from "./entities.ts";
import { type BurstResult, CallTimeoutError, check, fireBurst, type SearchResult, type SeedResult, type Side, type Timed } from "./side.ts";

/** The server's entry point, relative to the project root. */
export const SERVER_ENTRY = "node_modules/@modelcontextprotocol/server-memory/dist/index.js";
const STDERR_TAIL_LINES = 20;

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: unknown;
}

/** The temp dir of the run's memory files and the live server pids, cleaned up on any exit. */
let tempDir: string | undefined;
const livePids = new Set<number>();
process.on("exit", () => {
  for (const pid of livePids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
});

export class TheirSide implements Side {
  readonly name = "theirs" as const;
  readonly description: string;
  private readonly root: string;
  private readonly callTimeoutMs: number;
  private readonly version: string;
  private client: Client | undefined;
  private transport: StdioClientTransport | undefined;
  private file = "";
  private readonly stderrTail: string[] = [];
  /** Time from spawning the server to the end of the MCP initialize handshake. */
  private startMs = 0;

  constructor(root: string, version: string, callTimeoutMs: number) {
    this.root = root;
    this.version = version;
    this.callTimeoutMs = callTimeoutMs;
    this.description = `@modelcontextprotocol/server-memory ${version}, MCP over stdio (MCP SDK Client), Node ${process.version}, JSONL file`;
  }

  async prepare(size: number): Promise<void> {
    tempDir ??= mkdtempSync(join(tmpdir(), "branchmind-peers-"));
    this.file = join(tempDir, `memory-${size}.jsonl`);
    rmSync(this.file, { force: true });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(this.root, SERVER_ENTRY)],
      env: { MEMORY_FILE_PATH: this.file },
      cwd: tempDir,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim().length === 0) continue;
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      }
    });
    const client = new Client({ name: "branchmind-bench-peers", version: "1" });
    const started = performance.now();
    await client.connect(transport, { timeout: this.callTimeoutMs });
    this.startMs = performance.now() - started;
    if (transport.pid !== null) livePids.add(transport.pid);
    this.client = client;
    this.transport = transport;
  }

  private async call(name: string, args: Record<string, unknown>): Promise<{ ms: number; value: Record<string, unknown> }> {
    const client = this.client;
    if (client === undefined) throw new Error("theirs: the server is not running");
    const started = performance.now();
    let answer: ToolAnswer;
    try {
      answer = (await client.callTool({ name, arguments: args }, undefined, { timeout: this.callTimeoutMs })) as ToolAnswer;
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
        throw new CallTimeoutError(this.name, name, this.callTimeoutMs);
      const tail = this.stderrTail.length > 0 ? `; server stderr:\n${this.stderrTail.join("\n")}` : "";
      throw new Error(`theirs: ${name} failed: ${error instanceof Error ? error.message : String(error)}${tail}`);
    }
    const ms = performance.now() - started;
    if (answer.isError === true) throw new Error(`theirs: ${name} answered an error: ${JSON.stringify(answer.content).slice(0, 500)}`);
    if (answer.structuredContent === undefined) throw new Error(`theirs: ${name} answered without structuredContent`);
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
    let items = 0;
    let calls = 0;
    let maxCall = 0;
    let lastCall = 0;
    let directItems = 0;
    let directMs = 0;
    const started = performance.now();
    let ms = 0;
    for (const batch of batches) {
      if (directItems > 0 || performance.now() - started > budgetMs) {
        ms ||= performance.now() - started;
        const directStart = performance.now();
        const lines = batch.map((entity) => JSON.stringify({ type: "entity", ...entity })).join("\n");
        appendFileSync(this.file, items + directItems === 0 ? lines : `\n${lines}`);
        directItems += batch.length;
        directMs += performance.now() - directStart;
        continue;
      }
      const call = await this.call("create_entities", { entities: batch });
      const created = (call.value.entities ?? []) as unknown[];
      check(created.length === batch.length, this.name, `create_entities created ${created.length} of ${batch.length} entities`);
      items += batch.length;
      calls++;
      maxCall = Math.max(maxCall, call.ms);
      lastCall = call.ms;
    }
    ms ||= performance.now() - started;
    return {
      items,
      calls,
      ms,
      items_per_s: items / (ms / 1000),
      max_call_ms: maxCall,
      last_call_ms: lastCall,
      direct_items: directItems,
      direct_ms: directMs,
      complete: true,
    };
  }

  async ping(): Promise<Timed> {
    const client = this.client;
    if (client === undefined) throw new Error("theirs: the server is not running");
    const started = performance.now();
    try {
      await client.ping({ timeout: this.callTimeoutMs });
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
        throw new CallTimeoutError(this.name, "ping", this.callTimeoutMs);
      throw error;
    }
    return { ms: performance.now() - started };
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
    const pid = this.transport?.pid ?? null;
    await this.client?.close();
    if (pid !== null) livePids.delete(pid);
    this.client = undefined;
    this.transport = undefined;
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
    return { server_version: this.version, memory_file_bytes: bytes, server_start_ms: Math.round(this.startMs * 10) / 10 };
  }
}
