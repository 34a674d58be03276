/**
 * Which Chromium the end-to-end tests drive, so that `npm test` needs nothing but Node and npm:
 *
 * 1. `CHROMIUM_PATH`, when set (it must name an executable file);
 * 2. else `chromium` on PATH (Debian's package, for example);
 * 3. else the headless Chromium shipped inside the `@sparticuz/chromium` npm package (a devDependency),
 *    unpacked once into node_modules/.cache (so a fresh `npm ci` starts over with the installed version).
 *
 * The package unpacks into `os.tmpdir()` and trusts whatever it finds there, even a half-written file.
 * So a child Node process unpacks it with TMPDIR set to a fresh staging dir (this process's TMPDIR is
 * never changed), and the staging dir is renamed into place in one step: the cache holds a whole
 * browser or none.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

export interface ChromiumExecutable {
  path: string;
  /** Where it came from, for the run's timings and for error messages. */
  source: "CHROMIUM_PATH" | "PATH" | "@sparticuz/chromium";
}

const ROOT = join(import.meta.dirname, "..", "..", "..");
const PACKAGE_DIR = join(ROOT, "node_modules", "@sparticuz", "chromium");
const CACHE_DIR = join(ROOT, "node_modules", ".cache", "branchmind-chromium");
/** Unpacking takes about 3 s; a minute covers a slow disk. */
const UNPACK_TIMEOUT_MS = 60_000;
const UNPACK_SCRIPT = 'const { default: c } = await import("@sparticuz/chromium"); process.stdout.write(await c.executablePath());';

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function unpackBundled(): Promise<string> {
  const version = (JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }).version;
  const target = join(CACHE_DIR, version);
  const executable = join(target, "chromium");
  if (isExecutableFile(executable)) return executable;
  mkdirSync(CACHE_DIR, { recursive: true });
  const staging = mkdtempSync(join(CACHE_DIR, `.unpacking-${version}-`));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "--eval", UNPACK_SCRIPT], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      timeout: UNPACK_TIMEOUT_MS,
    });
    if (stdout !== join(staging, "chromium")) throw new Error(`@sparticuz/chromium unpacked to ${stdout}, not into ${staging}`);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another run put a whole browser there first: use it and drop this copy.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

export async function findChromium(): Promise<ChromiumExecutable> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured !== undefined && configured !== "") {
    if (!isExecutableFile(configured)) {
      throw new Error(
        `CHROMIUM_PATH is ${configured}, which is not an executable file: fix it, or unset it to use chromium on PATH or the bundled one.`,
      );
    }
    return { path: configured, source: "CHROMIUM_PATH" };
  }
  const system = onPath("chromium");
  if (system !== undefined) return { path: system, source: "PATH" };
  return { path: await unpackBundled(), source: "@sparticuz/chromium" };
}
