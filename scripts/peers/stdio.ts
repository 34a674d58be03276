/**
 * A peer MCP server run as a child process of the benchmark, with the Node that runs the benchmark,
 * and spoken to over stdio with the MCP SDK's `Client` and `StdioClientTransport`: start (timed to
 * the end of the `initialize` handshake), tool calls and the protocol's `ping`, each bounded by the
 * per-call timeout, the server's last stderr lines kept for error messages, and stop. Every peer
 * side (`server-memory.ts`, `memory-keeper.ts`) goes through it, so they are driven alike.
 *
 * It also owns the run's temporary directory for the peers' stores: the server processes and that
 * directory go away on `stop`, and on any exit of the benchmark (Ctrl-C and the overall timeout
 * exit the process through the shutdown hooks).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CallTimeoutError, type SideName, type Timed } from "./side.ts";

/** Server stderr lines kept to explain a failed call. */
const STDERR_TAIL_LINES = 20;

export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: unknown;
}

/** The run's temp dir of the peers' stores and the live server pids, cleaned up on any exit. */
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

/** The run's temporary directory for the peers' stores (made on first use, removed on exit). */
export function peerTempDir(): string {
  tempDir ??= mkdtempSync(join(tmpdir(), "branchmind-peers-"));
  return tempDir;
}

/** The text of a tool answer's `text` content items, joined (answers without structured content). */
export function textOf(answer: ToolAnswer): string {
  const items = Array.isArray(answer.content) ? (answer.content as { type?: string; text?: unknown }[]) : [];
  return items
    .filter((item) => item.type === "text" && typeof item.text === "string")
    .map((item) => item.text as string)
    .join("\n");
}

export interface StdioLaunch {
  /** The server's script, run with `process.execPath`. */
  entry: string;
  /** Added to the SDK's default environment (HOME, PATH, USER and a few more). */
  env: Record<string, string>;
  cwd: string;
}

export class StdioPeer {
  /** Time from spawning the server to the end of the MCP initialize handshake. */
  readonly startMs: number;
  private readonly side: SideName;
  private readonly callTimeoutMs: number;
  private readonly client: Client;
  private readonly pid: number | null;
  private readonly stderrTail: string[];

  private constructor(side: SideName, callTimeoutMs: number, client: Client, pid: number | null, stderrTail: string[], startMs: number) {
    this.side = side;
    this.callTimeoutMs = callTimeoutMs;
    this.client = client;
    this.pid = pid;
    this.stderrTail = stderrTail;
    this.startMs = startMs;
  }

  /** Spawns the server and completes the MCP handshake; a server that fails to start is reported with its stderr. */
  static async start(side: SideName, launch: StdioLaunch, callTimeoutMs: number): Promise<StdioPeer> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [launch.entry],
      env: launch.env,
      cwd: launch.cwd,
      stderr: "pipe",
    });
    const stderrTail: string[] = [];
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim().length === 0) continue;
        stderrTail.push(line);
        if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
      }
    });
    const client = new Client({ name: "branchmind-bench-peers", version: "1" });
    const started = performance.now();
    try {
      await client.connect(transport, { timeout: callTimeoutMs });
    } catch (error) {
      await transport.close().catch(() => undefined);
      const tail = stderrTail.length > 0 ? `; server stderr:\n${stderrTail.join("\n")}` : "";
      throw new Error(`${side}: the server did not start: ${error instanceof Error ? error.message : String(error)}${tail}`);
    }
    const startMs = performance.now() - started;
    const pid = transport.pid;
    if (pid !== null) livePids.add(pid);
    return new StdioPeer(side, callTimeoutMs, client, pid, stderrTail, startMs);
  }

  private failure(what: string, error: unknown): Error {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return new CallTimeoutError(this.side, what, this.callTimeoutMs);
    const tail = this.stderrTail.length > 0 ? `; server stderr:\n${this.stderrTail.join("\n")}` : "";
    return new Error(`${this.side}: ${what} failed: ${error instanceof Error ? error.message : String(error)}${tail}`);
  }

  /** One tool call, timed around the whole of it; an error answer (`isError`) throws. */
  async call(name: string, args: Record<string, unknown>): Promise<{ ms: number; answer: ToolAnswer }> {
    const started = performance.now();
    let answer: ToolAnswer;
    try {
      answer = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.callTimeoutMs })) as ToolAnswer;
    } catch (error) {
      throw this.failure(name, error);
    }
    const ms = performance.now() - started;
    if (answer.isError === true)
      throw new Error(`${this.side}: ${name} answered an error: ${JSON.stringify(answer.content).slice(0, 500)}`);
    return { ms, answer };
  }

  /** The protocol's `ping` request: answered by the server's SDK, no tool, no storage. */
  async ping(): Promise<Timed> {
    const started = performance.now();
    try {
      await this.client.ping({ timeout: this.callTimeoutMs });
    } catch (error) {
      throw this.failure("ping", error);
    }
    return { ms: performance.now() - started };
  }

  /** The names of the tools the server lists. */
  async toolNames(): Promise<string[]> {
    try {
      const listed = await this.client.listTools(undefined, { timeout: this.callTimeoutMs });
      return listed.tools.map((tool) => tool.name);
    } catch (error) {
      throw this.failure("tools/list", error);
    }
  }

  async stop(): Promise<void> {
    await this.client.close();
    if (this.pid !== null) livePids.delete(this.pid);
  }
}
