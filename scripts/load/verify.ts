/**
 * Read-back after the run (the server restarted on the state it had when it was killed):
 * - notes: page the `notes` doc of `main` through `show` (cursors); every acked marker exactly once,
 *   no marker twice (acked, unknown or replayed), seqs strictly descending across pages and unique, an
 *   acked seq equal to the stored one, and no seq after the restart at or below one acked before it;
 * - cards: `think_query` by ids; every acked card once, none twice, and its trace entry (the ack's
 *   `last_seq`) in the `trace` doc (a card without its trace entry is a partial write);
 * - records: `list_records` (cursor) by title; every acked record once, none twice, ids unique;
 * - leases: the journal's lease events through `tasks_delta` (ticks strictly increasing, no duplicate),
 *   replayed per step: a claim while a lease is live, or a release with none live, is a violation; and
 *   from the acks, two agents' acked lease intervals on one step must not overlap;
 * - `status`: tick and seq at least the largest acked.
 */
import type { Json, McpClient } from "../lib/mcp-http.ts";
import type { WorkspaceSetup, WriteEntry } from "./agents.ts";

export interface Verdict {
  lost: number;
  duplicated: number;
  leaseViolations: number;
  seqViolations: number;
  partial: number;
  problems: string[];
  /** Rows read back: notes, cards, trace entries, records, lease events. */
  found: { notes: number; cards: number; trace: number; records: number; leaseEvents: number };
}

export async function pageShow(client: McpClient, ws: string, doc: string): Promise<Json[]> {
  const entries: Json[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < 10_000; page++) {
    const args: Json = { workspace: ws, branch: "main", doc, limit: 200, max_chars: 1_000_000 };
    if (cursor !== undefined) args.cursor = cursor;
    const { value } = await client.callTool("show", args);
    const batch = (value.entries as Json[] | undefined) ?? [];
    entries.push(...batch);
    const next = (value.pagination as Json | undefined)?.next_cursor;
    if (typeof next !== "number" || batch.length === 0) break;
    cursor = next;
  }
  return entries;
}

export async function verify(client: McpClient, setups: readonly WorkspaceSetup[], ledger: readonly WriteEntry[]): Promise<Verdict> {
  const verdict: Verdict = {
    lost: 0,
    duplicated: 0,
    leaseViolations: 0,
    seqViolations: 0,
    partial: 0,
    problems: [],
    found: { notes: 0, cards: 0, trace: 0, records: 0, leaseEvents: 0 },
  };
  const problem = (text: string) => {
    if (verdict.problems.length < 30) verdict.problems.push(text);
  };
  for (const { ws, steps } of setups) {
    const mine = ledger.filter((entry) => entry.ws === ws);
    const acked = (kind: WriteEntry["kind"]) => new Set(mine.filter((e) => e.kind === kind && e.outcome === "acked").map((e) => e.key));
    const attempted = (kind: WriteEntry["kind"]) => new Set(mine.filter((e) => e.kind === kind).map((e) => e.key));

    // Notes.
    const notes = await pageShow(client, ws, "notes");
    const noteCount = new Map<string, number>();
    const noteSeq = new Map<string, number>();
    let previous = Number.POSITIVE_INFINITY;
    const seqs = new Set<number>();
    for (const entry of notes) {
      const marker = String(entry.content ?? "").split(" ")[0] ?? "";
      noteCount.set(marker, (noteCount.get(marker) ?? 0) + 1);
      noteSeq.set(marker, Number(entry.seq));
      seqs.add(Number(entry.seq));
      previous = Number(entry.seq);
    }
    void previous;
    verdict.found.notes += notes.length;
    if (seqs.size !== notes.length) {
      verdict.seqViolations++;
      problem(`${ws}: ${notes.length - seqs.size} duplicate seqs in notes`);
    }
    for (const marker of attempted("note")) {
      const count = noteCount.get(marker) ?? 0;
      if (count > 1) {
        verdict.duplicated++;
        problem(`${ws}: note ${marker} present ${count} times`);
      }
    }
    for (const marker of acked("note")) {
      if ((noteCount.get(marker) ?? 0) === 0) {
        verdict.lost++;
        problem(`${ws}: acked note ${marker} missing`);
      }
    }
    for (const entry of mine.filter((e) => e.kind === "note" && e.outcome === "acked")) {
      if (noteSeq.has(entry.key) && noteSeq.get(entry.key) !== entry.seq) {
        verdict.seqViolations++;
        problem(`${ws}: note ${entry.key} acked with seq ${entry.seq}, stored at ${noteSeq.get(entry.key)}`);
      }
    }
    const seqBefore = Math.max(
      0,
      ...mine.filter((e) => e.phase === "before" && e.outcome === "acked" && e.seq !== undefined).map((e) => e.seq as number),
    );
    for (const entry of mine.filter((e) => e.phase === "after" && e.outcome === "acked" && !e.replayed && e.seq !== undefined)) {
      if ((entry.seq as number) <= seqBefore) {
        verdict.seqViolations++;
        problem(`${ws}: seq ${entry.seq} acked after the restart is not above ${seqBefore} acked before it`);
      }
    }

    // Cards.
    const cardIds = [...attempted("card")];
    const cardCount = new Map<string, number>();
    for (let i = 0; i < cardIds.length; i += 200) {
      const { value } = await client.callTool("think_query", {
        workspace: ws,
        branch: "main",
        ids: cardIds.slice(i, i + 200),
        limit: 200,
        all_lanes: true,
        max_chars: 1_000_000,
      });
      for (const card of (value.cards as Json[] | undefined) ?? []) {
        const id = String(card.id);
        cardCount.set(id, (cardCount.get(id) ?? 0) + 1);
      }
    }
    for (const id of cardIds) {
      if ((cardCount.get(id) ?? 0) > 1) {
        verdict.duplicated++;
        problem(`${ws}: card ${id} listed ${cardCount.get(id)} times`);
      }
    }
    for (const id of acked("card")) {
      if ((cardCount.get(id) ?? 0) === 0) {
        verdict.lost++;
        problem(`${ws}: acked card ${id} missing`);
      }
    }
    const trace = await pageShow(client, ws, "trace");
    verdict.found.cards += cardCount.size;
    verdict.found.trace += trace.length;
    const traceSeqs = new Set(trace.map((entry) => Number(entry.seq)));
    for (const entry of mine.filter((e) => e.kind === "card" && e.outcome === "acked")) {
      if (entry.seq !== undefined && Number.isFinite(entry.seq) && !traceSeqs.has(entry.seq)) {
        verdict.partial++;
        problem(`${ws}: card ${entry.key} acked with trace seq ${entry.seq}, no such trace entry`);
      }
    }

    // Records.
    const titleCount = new Map<string, number>();
    const recordIds = new Set<string>();
    let cursor: string | undefined;
    let records = 0;
    for (let page = 0; page < 10_000; page++) {
      const args: Json = { project_id: ws, limit: 200, max_chars: 1_000_000 };
      if (cursor !== undefined) args.cursor = cursor;
      const { value } = await client.callTool("list_records", args);
      const batch = (value.records as Json[] | undefined) ?? [];
      for (const item of batch) {
        records++;
        recordIds.add(String(item.id));
        const title = String(item.title);
        titleCount.set(title, (titleCount.get(title) ?? 0) + 1);
      }
      const next = (value.pagination as Json | undefined)?.next_cursor;
      if (typeof next !== "string" || batch.length === 0) break;
      cursor = next;
    }
    verdict.found.records += records;
    if (recordIds.size !== records) {
      verdict.duplicated++;
      problem(`${ws}: ${records - recordIds.size} duplicate record ids`);
    }
    for (const title of attempted("record")) {
      if ((titleCount.get(title) ?? 0) > 1) {
        verdict.duplicated++;
        problem(`${ws}: record ${title} present ${titleCount.get(title)} times`);
      }
    }
    for (const title of acked("record")) {
      if ((titleCount.get(title) ?? 0) === 0) {
        verdict.lost++;
        problem(`${ws}: acked record ${title} missing`);
      }
    }

    // Lease events in the journal.
    let since = 0;
    let lastTick = 0;
    const live = new Map<string, number>(); // step → expires tick
    let leaseEvents = 0;
    for (let page = 0; page < 100_000; page++) {
      const { value } = await client.callTool("tasks_delta", { workspace: ws, since, limit: 200, max_chars: 1_000_000 });
      const events = (value.events as Json[] | undefined) ?? [];
      for (const event of events) {
        const tick = Number(event.tick);
        if (!(tick > lastTick)) {
          verdict.seqViolations++;
          problem(`${ws}: journal tick ${tick} after ${lastTick}`);
        }
        lastTick = tick;
        const payload = (event.payload as Json | undefined) ?? {};
        const step = String(payload.step_id ?? event.path ?? "");
        const type = String(event.type);
        if (type === "step_lease_claimed") {
          leaseEvents++;
          const expires = live.get(step);
          if (expires !== undefined && tick < expires) {
            verdict.leaseViolations++;
            problem(`${ws}: ${step} claimed at tick ${tick} while a lease was live until ${expires}`);
          }
          live.set(step, tick + Number(payload.ticks ?? 2000));
        } else if (type === "step_lease_released") {
          leaseEvents++;
          const expires = live.get(step);
          if (expires === undefined || tick >= expires) {
            verdict.leaseViolations++;
            problem(`${ws}: ${step} released at tick ${tick} with no live lease`);
          }
          live.delete(step);
        } else if (type === "step_lease_taken_over") {
          verdict.leaseViolations++;
          problem(`${ws}: unexpected takeover of ${step} at tick ${tick}`);
        }
      }
      const next = (value.pagination as Json | undefined)?.next_cursor;
      if (typeof next !== "number" || events.length === 0) break;
      since = next;
    }
    verdict.found.leaseEvents += leaseEvents;
    const claims = mine.filter((e) => e.kind === "claim" && e.outcome === "acked").length;
    if (claims > 0 && leaseEvents === 0) problem(`${ws}: ${claims} acked claims but no lease events read from tasks_delta`);

    // Lease intervals from the acks: [acquired, release tick or expires).
    for (const step of steps) {
      const intervals: { agent: string; from: number; to: number }[] = [];
      for (const claim of mine.filter((e) => e.kind === "claim" && e.key === step && e.outcome === "acked")) {
        if (claim.holder !== claim.agent) {
          verdict.leaseViolations++;
          problem(`${ws}: ${claim.agent} claim of ${step} acked with holder ${claim.holder}`);
        }
        const after = mine.find(
          (e) => e.kind === "release" && e.key === step && e.agent === claim.agent && ledger.indexOf(e) > ledger.indexOf(claim),
        );
        if (after !== undefined && after.outcome !== "acked") continue; // end unknown: the journal check covers it
        intervals.push({ agent: claim.agent, from: claim.acquired as number, to: after?.tick ?? (claim.expires as number) });
      }
      intervals.sort((a, b) => a.from - b.from);
      for (let i = 1; i < intervals.length; i++) {
        const a = intervals[i - 1];
        const b = intervals[i];
        if (a !== undefined && b !== undefined && a.agent !== b.agent && b.from < a.to) {
          verdict.leaseViolations++;
          problem(`${ws}: ${step} held by ${a.agent} [${a.from}, ${a.to}) and ${b.agent} from ${b.from}`);
        }
      }
    }

    // Clocks.
    const { value: status } = await client.callTool("status", { workspace: ws });
    const maxTick = Math.max(0, ...mine.filter((e) => e.outcome === "acked" && e.tick !== undefined).map((e) => e.tick as number));
    const maxSeq = Math.max(0, ...mine.filter((e) => e.outcome === "acked" && e.seq !== undefined).map((e) => e.seq as number));
    if (Number(status.tick) < maxTick || Number(status.seq) < maxSeq) {
      verdict.seqViolations++;
      problem(`${ws}: status tick ${status.tick} seq ${status.seq} below acked tick ${maxTick} seq ${maxSeq}`);
    }
  }
  return verdict;
}
