// End-to-end: a server started by the tests or the scripts never outlives the run that started it.
// Three runs are stopped the hard ways, after their server answered: a vitest run whose beforeAll fails
// (and never calls stop), a Node process killed with SIGKILL, and the conformance script killed with
// SIGKILL. After each, no process of the server's group (the guard, wrangler, workerd) is left and
// nothing answers on its port.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SERVER_MODULE = join(import.meta.dirname, "helpers", "server.ts");
/** The guard gives wrangler 5 s after SIGTERM before it kills the group; the rest is slack for a busy machine. */
const GONE_TIMEOUT_MS = 20_000;
const GONE_POLL_MS = 200;
/** A run starts wrangler (with the viewer's build): 10-30 s on a busy 2-CPU machine. */
const RUN_TIMEOUT_MS = 150_000;

const work = mkdtempSync(join(tmpdir(), "branchmind-lifetime-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Started {
  groupId: number;
  base: string;
}

/** Pids of the live processes in process group `groupId` (from /proc; zombies count as gone). */
function processesInGroup(groupId: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(join("/proc", entry, "stat"), "utf8");
    } catch {
      continue; // Ended while we looked.
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === groupId && state !== "Z") found.push(Number(entry));
  }
  return found;
}

async function answers(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/health`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/** Waits until the group has no live process and the port refuses, or the deadline passes; says what is left. */
async function leftovers(started: Started): Promise<{ processes: number[]; answering: boolean }> {
  const deadline = Date.now() + GONE_TIMEOUT_MS;
  for (;;) {
    const processes = processesInGroup(started.groupId);
    const answering = await answers(started.base);
    if ((processes.length === 0 && !answering) || Date.now() > deadline) return { processes, answering };
    await new Promise((done) => setTimeout(done, GONE_POLL_MS));
  }
}

function run(file: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string; output: string }>((done) => {
    const child = execFile(
      file,
      args,
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: RUN_TIMEOUT_MS },
      (_error, stdout, stderr) => {
        done({ code: child.exitCode, signal: child.signalCode, stdout, output: `${stdout}${stderr}` });
      },
    );
  });
}

// One after the other: two wrangler dev starting at the same moment can race for a port.
describe("a server started by the tests ends with the run", () => {
  it("after a vitest run whose beforeAll failed once the server was up", async () => {
    const report = join(work, "failing-setup.json");
    const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
    const config = join(import.meta.dirname, "fixtures", "vitest.config.ts");
    const result = await run(process.execPath, [vitest, "run", "--config", config], { LIFETIME_REPORT: report, NO_COLOR: "1" });

    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain("setup failed after the server started (on purpose)");
    const started = JSON.parse(readFileSync(report, "utf8")) as Started;
    expect(started.groupId).toBeGreaterThan(1);
    expect(await leftovers(started)).toEqual({ processes: [], answering: false });
  });

  it("after the process that started it was killed with SIGKILL", async () => {
    const script = [
      `import { startServer } from ${JSON.stringify(SERVER_MODULE)};`,
      `const server = await startServer(${JSON.stringify(ROOT)});`,
      "process.stdout.write(JSON.stringify({ groupId: server.groupId, base: server.base }));",
      // Only once the line is written: then die the way nothing can clean up after.
      'process.stdout.write("\\n", () => process.kill(process.pid, "SIGKILL"));',
    ].join("\n");
    const result = await run(process.execPath, ["--input-type=module", "--eval", script]);

    expect(result.signal, result.output).toBe("SIGKILL");
    const started = JSON.parse(result.stdout.split("\n")[0] ?? "") as Started;
    expect(await leftovers(started)).toEqual({ processes: [], answering: false });
  });

  it("after the conformance script was killed with SIGKILL once its server was ready", {
    timeout: RUN_TIMEOUT_MS + GONE_TIMEOUT_MS,
  }, async () => {
    const script = spawn("bash", [join(ROOT, "scripts", "conformance.sh")], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const ready = await new Promise<Started | undefined>((done) => {
      const timer = setTimeout(() => done(undefined), RUN_TIMEOUT_MS);
      script.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const base = /starting wrangler dev on (\S+)/.exec(output)?.[1];
        const group = /server group (\d+)/.exec(output)?.[1];
        if (base !== undefined && group !== undefined && output.includes("server ready")) {
          clearTimeout(timer);
          done({ groupId: Number(group), base });
        }
      });
      script.once("exit", () => {
        clearTimeout(timer);
        done(undefined);
      });
    });
    expect(ready, output).toBeDefined();
    const exited = new Promise((done) => script.once("exit", done));
    script.kill("SIGKILL");
    await exited;
    expect(await leftovers(ready as Started)).toEqual({ processes: [], answering: false });
  });
});
