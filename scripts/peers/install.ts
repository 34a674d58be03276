/**
 * On-demand installs of peers that are not devDependencies (mcp-memory-keeper), so that `npm ci` and
 * `npm test` never fetch or build them. Each goes, at an exact version, into a folder of its own under
 * `.peer-installs/` at the project root (git-ignored): a minimal package.json that depends on it, then
 * `npm install` there.
 *
 * A peer with a native module (better-sqlite3) must be built for the Node that will run it, which is
 * the Node running this benchmark (npm scripts here run on the `node` devDependency, not the system's
 * Node). So npm runs under `process.execPath` (npm's own `npm-cli.js`), with that Node's directory first
 * on PATH and `nodedir` set to C headers for that Node's ABI (`headersVersion`): the Node
 * installation's own when they are the right ones, else those of the registry package of that Node
 * build (`node-<platform>-<arch>`, the package the `node` devDependency installs), kept in
 * `.peer-installs/node-headers-v<version>/`. node-gyp then needs no download from nodejs.org.
 *
 * After an install whose native module loads in a child process of this Node, a marker file records
 * it; a later run with the same Node ABI reuses the folder after the same load check, and otherwise
 * wipes and reinstalls it. An interrupted install leaves no marker. What it does goes to the log.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";

/** The folder of on-demand installs, at the project root (git-ignored). */
export const PEER_INSTALLS_DIR = ".peer-installs";
/** Written into an install's folder once it installed and its native module loaded. */
const MARKER_FILE = ".installed.json";
/** Longest a native module's load check may take (a child `node -e`). */
const CHECK_TIMEOUT_MS = 60_000;
/**
 * Node 24.19.0 and later 24.x ship a `node_object_wrap.h` whose destructor removes an environment
 * cleanup hook. The header is compiled into the addon, and that call aborts the whole process
 * ("Assertion failed: (env) != nullptr") when V8 collects a wrapped object with no context entered
 * (nodejs/node#65446). better-sqlite3 12 derives its statements from `node::ObjectWrap`: built
 * against those headers, the peer server died in its first seconds of seeding. The headers of
 * 24.18.1, the last 24.x without it, have the same ABI (NODE_MODULE_VERSION 137), and an addon built
 * against them runs on every 24.x.
 */
const OBJECT_WRAP_SAFE_HEADERS = { major: 24, fromMinor: 19, version: "24.18.1" } as const;

export interface PeerPackage {
  name: string;
  /** An exact version: the folder is named after it and it is pinned in the folder's package.json. */
  version: string;
  /** The native dependency the install script builds, allowed to run its install script. */
  native: string;
  /**
   * JavaScript run by `node -e` in the install's folder: it must load the native module and print one
   * line saying what loaded (e.g. the SQLite version); a failure to load fails the check.
   */
  check: string;
}

export interface PeerInstall {
  /** The install's folder (absolute). */
  dir: string;
  /** The package's own folder inside it. */
  packageDir: string;
  /** True when an earlier install was reused. */
  reused: boolean;
  /** Time the install took (this run's, or the earlier one's when reused). */
  install_s: number;
  installed_at: string;
  /** What the load check printed. */
  loaded: string;
  /** The Node version whose headers the native module was built against. */
  headers: string;
}

interface Marker {
  package: string;
  version: string;
  node: string;
  node_abi: string;
  installed_at: string;
  install_s: number;
  /** The Node version whose headers the native module was built against. */
  headers: string;
}

/** npm child process groups still running, ended with the benchmark whatever way it exits. */
const liveGroups = new Set<number>();
process.on("exit", () => {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** npm's own `npm-cli.js`, to run under this Node (the one `npm run` used, else the one on PATH). */
function npmCli(): string {
  const candidates = [process.env.npm_execpath];
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const bin = join(dir, "npm");
    if (dir.length > 0 && existsSync(bin)) candidates.push(realpathSync(bin));
  }
  const found = candidates.find((path) => path !== undefined && basename(path) === "npm-cli.js" && existsSync(path));
  if (found === undefined) throw new Error("cannot find npm's npm-cli.js; run this through `npm run bench:peers`");
  return found;
}

/** The environment for npm: no settings of the `npm run` that started the benchmark, this Node first on PATH. */
function npmEnv(nodedir: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
  env.NODE = process.execPath;
  env.npm_config_update_notifier = "false";
  if (nodedir !== undefined) env.npm_config_nodedir = nodedir;
  return env;
}

/** Runs npm under this Node in `cwd`, its output to the log (stderr); rejects on a non-zero exit. */
function runNpm(args: string[], cwd: string, nodedir: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that node-gyp's compilers go away with the benchmark too.
    const child: ChildProcess = spawn(process.execPath, [npmCli(), ...args], {
      cwd,
      env: npmEnv(nodedir),
      stdio: ["ignore", 2, 2],
      detached: true,
    });
    if (child.pid !== undefined) liveGroups.add(child.pid);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (child.pid !== undefined) liveGroups.delete(child.pid);
      if (code === 0) resolve();
      else reject(new Error(`npm ${args[0]} in ${cwd} ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}

/** The Node version whose headers a native module is built against for this Node: its own, but see `OBJECT_WRAP_SAFE_HEADERS`. */
export function headersVersion(): string {
  const [major, minor] = process.versions.node.split(".").map(Number);
  const safe = OBJECT_WRAP_SAFE_HEADERS;
  return major === safe.major && (minor ?? 0) >= safe.fromMinor ? safe.version : process.versions.node;
}

/** True when `dir/include/node` holds the headers of Node `version` (node-gyp's `nodedir` layout). */
function headersMatch(dir: string, version: string): boolean {
  const include = join(dir, "include", "node");
  if (!existsSync(join(include, "common.gypi"))) return false;
  let text: string;
  try {
    text = readFileSync(join(include, "node_version.h"), "utf8");
  } catch {
    return false;
  }
  const part = (name: string) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  return `${part("MAJOR")}.${part("MINOR")}.${part("PATCH")}` === version;
}

/** A `nodedir` with the headers of Node `version`: this installation's own if they are those, else fetched once from the registry. */
async function nodeHeaders(root: string, version: string): Promise<string> {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  if (headersMatch(prefix, version)) return prefix;
  const dir = join(root, PEER_INSTALLS_DIR, `node-headers-v${version}`);
  if (headersMatch(dir, version)) return dir;
  const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  log(`  fetching the C headers of Node ${version} for node-gyp: the registry package ${pkg}@${version}`);
  const staging = `${dir}.staging`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = performance.now();
  const flags = ["--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts"];
  await runNpm(["install", ...flags, "--prefix", staging, `${pkg}@${version}`], staging, undefined);
  mkdirSync(dir, { recursive: true });
  renameSync(join(staging, "node_modules", pkg, "include"), join(dir, "include"));
  rmSync(staging, { recursive: true, force: true });
  if (!headersMatch(dir, version)) throw new Error(`${pkg}@${version} did not hold the headers of Node ${version}`);
  log(`  headers in ${PEER_INSTALLS_DIR}/${basename(dir)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return dir;
}

/** Loads the native module in a child of this Node; answers what it printed, or throws why it failed. */
function loadCheck(peer: PeerPackage, dir: string): string {
  const run = spawnSync(process.execPath, ["-e", peer.check], { cwd: dir, encoding: "utf8", timeout: CHECK_TIMEOUT_MS });
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || "").trim().split("\n").slice(0, 6).join("\n");
    throw new Error(`${peer.name}: ${peer.native} does not load with Node ${process.version}: ${why}`);
  }
  return run.stdout.trim();
}

function installedVersion(packageDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The peer's install under `.peer-installs/<name>-<version>/`: reused when it is complete and loads, else made now. */
export async function ensurePeerInstalled(root: string, peer: PeerPackage): Promise<PeerInstall> {
  const label = `${peer.name}@${peer.version}`;
  const folder = `${PEER_INSTALLS_DIR}/${peer.name}-${peer.version}`;
  const dir = join(root, PEER_INSTALLS_DIR, `${peer.name}-${peer.version}`);
  const packageDir = join(dir, "node_modules", peer.name);
  const markerPath = join(dir, MARKER_FILE);
  if (existsSync(markerPath)) {
    try {
      const marker = JSON.parse(readFileSync(markerPath, "utf8")) as Marker;
      const current = marker.node_abi === process.versions.modules && marker.headers === headersVersion();
      if (current && installedVersion(packageDir) === peer.version) {
        const loaded = loadCheck(peer, dir);
        log(`${label}: reusing ${folder} (installed ${marker.installed_at} with Node ${marker.node}; ${loaded})`);
        return {
          dir,
          packageDir,
          reused: true,
          install_s: marker.install_s,
          installed_at: marker.installed_at,
          loaded,
          headers: marker.headers,
        };
      }
      log(`${label}: ${folder} was built for Node ${marker.node} with the headers of ${marker.headers ?? "?"}; reinstalling`);
    } catch (error) {
      log(`${label}: ${folder} is there but unusable (${error instanceof Error ? error.message : String(error)}); reinstalling`);
    }
  }
  log(`${label}: installing into ${folder} with npm under Node ${process.version} (${peer.native} may build from source)`);
  const started = performance.now();
  const headers = headersVersion();
  if (headers !== process.versions.node)
    log(`  native modules build against the headers of Node ${headers} (OBJECT_WRAP_SAFE_HEADERS in install.ts)`);
  const nodedir = await nodeHeaders(root, headers);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: `peer-install-${peer.name}`,
    version: "0.0.0",
    private: true,
    description: `${label} for npm run bench:peers, installed on demand`,
    dependencies: { [peer.name]: peer.version },
    allowScripts: { [peer.native]: true },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await runNpm(["install", "--no-audit", "--no-fund"], dir, nodedir);
  const version = installedVersion(packageDir);
  if (version !== peer.version) throw new Error(`${label}: npm installed version ${version ?? "none"}`);
  const loaded = loadCheck(peer, dir);
  const install_s = Math.round((performance.now() - started) / 100) / 10;
  const installed_at = new Date().toISOString();
  const marker: Marker = {
    package: peer.name,
    version: peer.version,
    node: process.version,
    node_abi: process.versions.modules,
    installed_at,
    install_s,
    headers,
  };
  writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
  log(`${label}: installed in ${install_s} s (${loaded})`);
  return { dir, packageDir, reused: false, install_s, installed_at, loaded, headers };
}
