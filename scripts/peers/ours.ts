/**
 * Our side of the peer benchmark: BranchMind under a local `wrangler dev`, spoken to over MCP HTTP on
 * `?toolset=full` with the scripts' own client (`lib/mcp-http.ts`). Entities are graph nodes on `main`
 * of a fresh workspace per size (`peers/n<size>`):
 *
 * - seeding: `workspace_import` with graph items (the bulk path `npm run bench` seeds graphs with),
 *   one call per batch, within the import's limits (`bench/graph-seed.ts`);
 * - write: `graph_apply` with one `node_upsert`;
 * - open by id: `graph_query` with `ids: [name]` (resolved through the key index);
 * - search: `graph_query` with `text` (a case-insensitive substring of id, title and text), answered
 *   from the trigram index of node versions. A complete search follows `next_cursor` until `has_more`
 *   is false, as a client must; with the hits on one page and within the index's examination bound,
 *   that is one call;
 * - ping: the `ping` tool (no read, no write: the HTTP, Worker, MCP and Durable Object round trip).
 */
import { performance } from "node:perf_hooks";
import { MAX_BODY_BYTES, MAX_GRAPH_OPS_PER_CALL, MAX_OPS_PER_ITEM } from "../bench/graph-seed.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { type Entity, toNodeUpsert } from "./entities.ts";
import {
  type BurstResult,
  CallTimeoutError,
  check,
  fireBurst,
  type SearchResult,
  type SeedResult,
  SeedTally,
  type Side,
  type Timed,
} from "./side.ts";

const BRANCH = "main";
/** Nodes per search page (the most a page of `graph_query` returns is 200; ~10 hits fit in any). */
const SEARCH_PAGE_LIMIT = 50;
/**
 * The smallest number of versions a `graph_query` text call examines before it may stop with `has_more`
 * (the scan's 1,000 per source; the index examines up to 5,000): only sizes the loop guard.
 */
const EXAMINED_PER_CALL = 1_000;

interface QueriedNode {
  id: string;
  type: string;
  text?: string;
}

/** Runs one call timed around the whole of it; a request the client's timeout aborted becomes a `CallTimeoutError`. */
async function timed(what: string, timeoutMs: number, run: () => Promise<{ value: Json }>): Promise<{ ms: number; value: Json }> {
  const started = performance.now();
  try {
    const { value } = await run();
    return { ms: performance.now() - started, value };
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") throw new CallTimeoutError("ours", what, timeoutMs);
    throw error;
  }
}

export class OurSide implements Side {
  readonly name = "ours" as const;
  readonly seedsDirectly = false;
  readonly description: string;
  private readonly client: McpClient;
  private workspace = "";
  private size = 0;

  private readonly callTimeoutMs: number;

  /** `client` must have been made with `timeoutMs: callTimeoutMs`. */
  constructor(client: McpClient, endpoint: string, callTimeoutMs: number) {
    this.client = client;
    this.callTimeoutMs = callTimeoutMs;
    this.description = `BranchMind, MCP over HTTP (${endpoint}), wrangler dev (local workerd, SQLite Durable Object)`;
  }

  async prepare(size: number): Promise<void> {
    this.size = size;
    this.workspace = `peers/n${size}`;
  }

  async seed(batches: Iterable<Entity[]>, budgetMs: number): Promise<SeedResult> {
    const tally = new SeedTally();
    for (const batch of batches) {
      // No direct path into a Durable Object's storage: a seeding past its limit stops short.
      if (tally.elapsedMs() > budgetMs) break;
      if (batch.length > MAX_GRAPH_OPS_PER_CALL)
        throw new Error(`ours: a seeding batch of ${batch.length} exceeds ${MAX_GRAPH_OPS_PER_CALL} graph ops`);
      const graphItems: Json[] = [];
      for (let start = 0; start < batch.length; start += MAX_OPS_PER_ITEM) {
        graphItems.push({ op: "graph", branch: BRANCH, ops: batch.slice(start, start + MAX_OPS_PER_ITEM).map(toNodeUpsert) });
      }
      const args = { workspace: this.workspace, ops: graphItems };
      const bytes = Buffer.byteLength(JSON.stringify(args));
      if (bytes > MAX_BODY_BYTES) throw new Error(`ours: a seeding call of ${bytes} bytes exceeds ${MAX_BODY_BYTES}: lower --seed-batch`);
      const { ms, value } = await timed("workspace_import", this.callTimeoutMs, () => this.client.callTool("workspace_import", args));
      check(
        value.graph_ops_applied === batch.length,
        this.name,
        `import applied ${String(value.graph_ops_applied)} of ${batch.length} ops`,
      );
      tally.call(batch.length, ms);
    }
    return tally.result(this.size);
  }

  async ping(): Promise<Timed> {
    const { ms } = await timed("ping", this.callTimeoutMs, () => this.client.callTool("ping", { workspace: this.workspace }));
    return { ms };
  }

  async write(entity: Entity): Promise<Timed> {
    const { ms, value } = await timed("graph_apply", this.callTimeoutMs, () =>
      this.client.callTool("graph_apply", { workspace: this.workspace, branch: BRANCH, ops: [toNodeUpsert(entity)] }),
    );
    const applied = value.applied as { nodes_upserted?: number } | undefined;
    check(applied?.nodes_upserted === 1, this.name, `graph_apply of ${entity.name} answered ${JSON.stringify(value.applied)}`);
    return { ms };
  }

  async open(entity: Entity): Promise<Timed> {
    const { ms, value } = await timed("graph_query", this.callTimeoutMs, () =>
      this.client.callTool("graph_query", { workspace: this.workspace, branch: BRANCH, ids: [entity.name], limit: 1 }),
    );
    const nodes = (value.nodes ?? []) as QueriedNode[];
    const want = toNodeUpsert(entity);
    const node = nodes[0];
    check(
      nodes.length === 1 && node?.id === want.id && node.type === want.type && node.text === want.text,
      this.name,
      `graph_query ids [${entity.name}] returned ${JSON.stringify(nodes).slice(0, 300)}`,
    );
    return { ms };
  }

  private async searchPage(term: string, cursor: number | undefined): Promise<{ ms: number; names: string[]; next: number | undefined }> {
    const args: Json = { workspace: this.workspace, branch: BRANCH, text: term, limit: SEARCH_PAGE_LIMIT };
    if (cursor !== undefined) args.cursor = cursor;
    const { ms, value } = await timed("graph_query", this.callTimeoutMs, () => this.client.callTool("graph_query", args));
    check(value.truncated !== true, this.name, `graph_query text "${term}": a page was truncated by the budget`);
    const page = value.pagination as { has_more?: boolean; next_cursor?: number } | undefined;
    const names = ((value.nodes ?? []) as QueriedNode[]).map((node) => node.id);
    if (page?.has_more === true) check(typeof page.next_cursor === "number", this.name, "graph_query: has_more without next_cursor");
    return { ms, names, next: page?.has_more === true ? page.next_cursor : undefined };
  }

  async search(term: string): Promise<SearchResult> {
    // Bounded: the cursor (a seq) must go down every page, and a loose cap on calls catches anything else.
    const maxCalls = 10 * Math.ceil((this.size + 1) / EXAMINED_PER_CALL) + 10;
    const started = performance.now();
    const names: string[] = [];
    let cursor: number | undefined;
    let calls = 0;
    do {
      const page = await this.searchPage(term, cursor);
      names.push(...page.names);
      check(
        page.next === undefined || cursor === undefined || page.next < cursor,
        this.name,
        `graph_query text: the cursor did not advance`,
      );
      cursor = page.next;
      calls++;
      check(calls <= maxCalls, this.name, `graph_query text "${term}" still has more after ${calls} calls`);
    } while (cursor !== undefined);
    return { ms: performance.now() - started, calls, names };
  }

  burst(entities: Entity[]): Promise<BurstResult> {
    return fireBurst(
      entities,
      (entity) => this.write(entity),
      async (names) => {
        const { value } = await this.client.callTool("graph_query", {
          workspace: this.workspace,
          branch: BRANCH,
          ids: names,
          limit: names.length,
          include_edges: false,
        });
        return new Set(((value.nodes ?? []) as QueriedNode[]).map((node) => node.id));
      },
    );
  }

  async finish(): Promise<void> {
    // The workspace stays in the run's temporary state, which goes away with the server.
  }

  facts(): Record<string, unknown> {
    return { workspace: this.workspace, branch: BRANCH, search_page_limit: SEARCH_PAGE_LIMIT };
  }
}
