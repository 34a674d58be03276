/**
 * What a benchmark result depends on besides the code: commit and dirty state, CPUs, memory, OS, Node
 * and wrangler versions, and the load average. Recorded with every run so numbers from different
 * machines or busy moments are not compared blindly.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import type { Json } from "../lib/mcp-http.ts";

/** 1-, 5- and 15-minute load averages, rounded to hundredths. */
export function loadAverage(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}

/** The short commit of the checkout in `root`, or "unknown" (no git, or an exported tree without one). */
export function commitOf(root: string): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
    }).trim();
  } catch {
    return "unknown";
  }
}

export function machineInfo(root: string): Json {
  let wranglerVersion = "unknown";
  try {
    const pkg = JSON.parse(readFileSync(join(root, "node_modules", "wrangler", "package.json"), "utf8")) as { version?: string };
    wranglerVersion = pkg.version ?? wranglerVersion;
  } catch {
    // Reported as unknown.
  }
  const cpuList = cpus();
  const git = (...args: string[]): string | undefined => {
    try {
      return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 }).trim();
    } catch {
      return undefined;
    }
  };
  const status = git("status", "--porcelain");
  return {
    commit: git("rev-parse", "--short", "HEAD") ?? "unknown",
    uncommitted_changes: status === undefined ? null : status.length > 0,
    // The server runs a snapshot of the working tree, so say what differed from the commit (first 30 paths).
    uncommitted_files:
      status === undefined
        ? null
        : status
            .split("\n")
            .filter((line) => line.trim().length > 0)
            .slice(0, 30)
            .map((line) => line.trim().replace(/^\S{1,2}\s+/, "")),
    cpus: cpuList.length,
    cpu_model: cpuList[0]?.model.trim() ?? "unknown",
    total_memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${platform()} ${release()}`,
    node: process.version,
    wrangler: wranglerVersion,
    server: "wrangler dev (local workerd, SQLite-backed Durable Objects), AUTH_MODE=dev",
  };
}
