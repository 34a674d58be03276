/**
 * The peer benchmark's items, the same on every side: knowledge-graph entities in the official memory
 * server's shape (a name, an entity type, a few observations), generated deterministically so every
 * run and every server hold the same data. Our side stores each one as a graph node (name → id, entity
 * type → type, observations joined by newlines → text); memory-keeper as a context item (name → key,
 * observations joined by newlines → value, entity type → channel).
 *
 * Exactly `hits` of the seeded entities (spread evenly over the store, oldest to newest) carry the
 * search term in one observation; no other text of any entity can contain it (names, types and the
 * vocabulary are checked against it at load), so a search must return exactly those entities on every
 * side, at every size.
 */

/** Case-insensitive substring search term on every side; no name, type or vocabulary word contains it. */
export const SEARCH_TERM = "quasar";
export const OBSERVATIONS_PER_ENTITY = 3;
const WORDS_PER_OBSERVATION = 7;

const TYPES = ["person", "project", "organization", "concept", "event", "tool"] as const;
const VOCABULARY = [
  "prefers",
  "works",
  "on",
  "with",
  "the",
  "cache",
  "storage",
  "latency",
  "review",
  "deploy",
  "morning",
  "release",
  "budget",
  "team",
  "design",
  "index",
  "query",
  "branch",
  "merge",
  "metrics",
  "customer",
  "invoice",
  "schedule",
  "backlog",
  "roadmap",
  "incident",
  "meeting",
  "weekly",
  "remote",
  "office",
  "coffee",
  "python",
  "rust",
  "typescript",
  "database",
  "network",
  "security",
  "audit",
  "report",
  "draft",
  "approved",
  "pending",
  "blocked",
  "migrated",
  "legacy",
  "service",
  "gateway",
  "pipeline",
  "quarterly",
  "planning",
  "onboarding",
  "mentor",
  "hiring",
  "vendor",
  "contract",
  "renewal",
  "feedback",
  "survey",
  "prototype",
  "launch",
  "retro",
  "sprint",
  "estimate",
  "deadline",
] as const;

export interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

/** Our side's form of an entity: one `node_upsert` graph op. */
export interface NodeUpsert {
  op: "node_upsert";
  id: string;
  type: string;
  text: string;
}

for (const word of [...TYPES, ...VOCABULARY, "entity", "write", "burst"]) {
  if (word.includes(SEARCH_TERM)) throw new Error(`the vocabulary word "${word}" contains the search term`);
}

/** A deterministic 32-bit hash of (i, salt). */
function hash(i: number, salt: number): number {
  let x = Math.imul(i + 1, 2654435761) ^ Math.imul(salt + 7, 40503);
  x = Math.imul(x ^ (x >>> 15), 2246822507);
  x = Math.imul(x ^ (x >>> 13), 3266489909);
  return (x ^ (x >>> 16)) >>> 0;
}

function observation(seed: number, k: number): string {
  const words: string[] = [];
  for (let w = 0; w < WORDS_PER_OBSERVATION; w++) words.push(VOCABULARY[hash(seed, k * 31 + w) % VOCABULARY.length] ?? "note");
  return words.join(" ");
}

/** An entity named `name` whose content derives from `seed`; with `withTerm`, its second observation mentions the search term. */
function entityOf(name: string, seed: number, withTerm: boolean): Entity {
  const observations: string[] = [];
  for (let k = 0; k < OBSERVATIONS_PER_ENTITY; k++) {
    const text = observation(seed, k);
    observations.push(withTerm && k === 1 ? `${text} ${SEARCH_TERM} survey` : text);
  }
  return { name, entityType: TYPES[hash(seed, 997) % TYPES.length] ?? "concept", observations };
}

/** The seeded entities of a store of `size`: `entity-000000` … , the `hits` positions spread evenly. */
export class EntitySet {
  readonly size: number;
  readonly hitIndexes: readonly number[];
  private readonly hitSet: Set<number>;

  constructor(size: number, hits: number) {
    if (hits > size) throw new Error(`cannot place ${hits} search hits in ${size} entities`);
    this.size = size;
    this.hitIndexes = Array.from({ length: hits }, (_, j) => Math.floor(((j + 0.5) * size) / hits));
    this.hitSet = new Set(this.hitIndexes);
  }

  nameAt(i: number): string {
    return `entity-${String(i).padStart(7, "0")}`;
  }

  at(i: number): Entity {
    return entityOf(this.nameAt(i), i, this.hitSet.has(i));
  }

  /** The names a search for `SEARCH_TERM` must return, in seeding order. */
  hitNames(): string[] {
    return this.hitIndexes.map((i) => this.nameAt(i));
  }

  /** The seeded entities in batches of at most `batch`, in order. */
  *batches(batch: number): Generator<Entity[]> {
    for (let start = 0; start < this.size; start += batch) {
      const end = Math.min(this.size, start + batch);
      yield Array.from({ length: end - start }, (_, k) => this.at(start + k));
    }
  }

  /** A seeded entity picked pseudo-randomly for round `round` (the same on every side). */
  pick(round: number): Entity {
    return this.at(hash(round, 4242) % this.size);
  }
}

/** A new entity for measured write number `n` (never seeded, never matching the search term). */
export function writeEntity(n: number): Entity {
  return entityOf(`write-${String(n).padStart(6, "0")}`, 1_000_000 + n, false);
}

/** The `count` new entities of concurrent-write round `round`. */
export function burstEntities(round: number, count: number): Entity[] {
  return Array.from({ length: count }, (_, k) =>
    entityOf(`burst-${round}-${String(k).padStart(2, "0")}`, 2_000_000 + round * 1000 + k, false),
  );
}

export function toNodeUpsert(entity: Entity): NodeUpsert {
  return { op: "node_upsert", id: entity.name, type: entity.entityType, text: entity.observations.join("\n") };
}
