/**
 * Reads a V8 `.cpuprofile` (what `wrangler check startup` writes): its active time, counted the way
 * wrangler's own summary counts it (every sample's time delta, less the samples in `(idle)`), and the
 * functions that took the most of it, for saying where a startup's time went.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  /** Sampled time not spent idle, garbage collection included, in ms. */
  activeMs: number;
  garbageCollectionMs: number;
}

/** One function's share of the active time: its own (self) and with everything it called (total), in ms. */
export interface FunctionTime {
  name: string;
  selfMs: number;
  totalMs: number;
}

const IDLE = "(idle)";
const GARBAGE_COLLECTOR = "(garbage collector)";

/** Each sample with its node and time delta in microseconds. */
function* samplesOf(profile: CpuProfile): Generator<[ProfileNode | undefined, number]> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples ?? [];
  for (const [index, delta] of (profile.timeDeltas ?? []).entries()) yield [nodes.get(samples[index] ?? 0), delta];
}

export function summarize(profile: CpuProfile): ProfileSummary {
  let active = 0;
  let garbage = 0;
  for (const [node, delta] of samplesOf(profile)) {
    const name = node?.callFrame.functionName;
    if (name !== IDLE) active += delta;
    if (name === GARBAGE_COLLECTOR) garbage += delta;
  }
  return { activeMs: active / 1000, garbageCollectionMs: garbage / 1000 };
}

/** `name file:line`, the bundle's path shortened to its file name. */
function labelOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split("/").pop() ?? "";
  return file === "" ? functionName || "(anonymous)" : `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
}

/** The `count` functions with the most total time (idle left out), heaviest first. */
export function heaviestFunctions(profile: CpuProfile, count: number): FunctionTime[] {
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, { self: number; total: number }>();
  const timeOf = (label: string) => {
    let time = times.get(label);
    if (!time) {
      time = { self: 0, total: 0 };
      times.set(label, time);
    }
    return time;
  };
  for (const [node, delta] of samplesOf(profile)) {
    if (!node || node.callFrame.functionName === IDLE) continue;
    timeOf(labelOf(node)).self += delta;
    // A recursive function counts once per sample in its total.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parents.get(id)) {
      const ancestor = byId.get(id);
      if (!ancestor || ancestor.callFrame.functionName === "(root)") continue;
      const label = labelOf(ancestor);
      if (seen.has(label)) continue;
      seen.add(label);
      timeOf(label).total += delta;
    }
  }
  return [...times]
    .map(([name, time]) => ({ name, selfMs: time.self / 1000, totalMs: time.total / 1000 }))
    .sort((a, b) => b.totalMs - a.totalMs || a.name.localeCompare(b.name))
    .slice(0, count);
}
