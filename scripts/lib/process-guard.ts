/**
 * Runs one command and ends it together with its caller: `node process-guard.ts <command> [args...]`.
 *
 * A server that a test or a script starts must not outlive it, however the caller ends: a failed
 * setup, an uncaught error, a worker killed by the test runner, `kill -9`. Only the operating system
 * sees all of those, and it shows them one way: it closes the caller's end of a pipe. So the caller
 * spawns this guard detached (it leads a new process group) with a pipe on its stdin, and the guard
 * spawns the command in its own group, passing the command's output through. Then:
 *
 * - stdin closes (the caller ended, or closed it on purpose): the guard sends SIGTERM to the whole
 *   group, gives the command STOP_GRACE_MS to exit, and then SIGKILLs the group (itself included);
 * - SIGTERM, SIGINT or SIGHUP reach the guard (a caller stopping the group): the same;
 * - the command exits by itself: the guard SIGKILLs what it left in the group (workerd under wrangler).
 *
 * The caller keeps the usual handle: signalling `-guardPid` reaches the guard and everything under it.
 * Knows nothing about what the command is.
 */
import { spawn } from "node:child_process";

/** How long the command may take to exit after SIGTERM before the group is killed. */
const STOP_GRACE_MS = 5_000;

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write("usage: node process-guard.ts <command> [args...]\n");
  process.exit(2);
}

function killGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // The group is already gone.
  }
}

const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
let stopping = false;

function stop(): void {
  if (stopping) return;
  stopping = true;
  killGroup("SIGTERM");
  setTimeout(() => killGroup("SIGKILL"), STOP_GRACE_MS);
}

child.once("exit", () => killGroup("SIGKILL"));
child.once("error", (error) => {
  process.stderr.write(`process-guard: could not start ${command}: ${error.message}\n`);
  killGroup("SIGKILL");
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, stop);
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.on("error", stop);
process.stdin.resume();
