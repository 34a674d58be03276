/**
 * "Did you mean": the known name closest to a mistyped one, for the actions of UNKNOWN_CMD errors.
 * Names are compared after normalizing case and separators (`notes_commit`, `notes.commit` and
 * `Notes/Commit` are the same), by edit distance; ties go to the longer shared prefix, then to the
 * earlier candidate. Deterministic and pure.
 */

/** Inputs are cut to this many characters before comparing: command names are far shorter, and the cost stays bounded. */
const MAX_COMPARED_CHARS = 128;

function normalize(name: string): string {
  return name
    .slice(0, MAX_COMPARED_CHARS)
    .toLowerCase()
    .replace(/[_/\s-]+/g, ".");
}

/** Levenshtein distance (insert, delete, substitute: 1 each), two rows. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

function sharedPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/** The candidate closest to `input`, or undefined when there are none. */
export function closestName(input: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalize(input);
  let best: { name: string; distance: number; prefix: number } | undefined;
  for (const name of candidates) {
    const normalized = normalize(name);
    const distance = editDistance(wanted, normalized);
    const prefix = sharedPrefix(wanted, normalized);
    if (!best || distance < best.distance || (distance === best.distance && prefix > best.prefix)) {
      best = { name, distance, prefix };
    }
  }
  return best?.name;
}
