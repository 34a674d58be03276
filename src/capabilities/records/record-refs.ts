/**
 * Opening a Record-Sync record by ref, for the `open` command (docs/portals.md "## open"): `R001` is
 * the record as it is, `R001@v2` one of its versions as it was (the names get_record_history and
 * get_record_diff print). A read that activates nothing and needs no session. Also the small forms an
 * answer degrades to under a tight budget. Every text of a record is bounded by its schema (a body
 * 32k characters, metadata 16 KB), so one row is read whole.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import type { RecordView } from "./records.schema";
import { findRecord, toRecord, versionRecord } from "./records.store";
import { findVersion } from "./records-versions.store";

export type RecordRefView =
  | { kind: "record"; ref: string; record: RecordView }
  | { kind: "record_version"; ref: string; record: RecordView; current_version: number };

/** Body lengths a record is cut to, largest first, when the whole record does not fit the budget. */
const BODY_CUTS = [16_000, 8_000, 4_000, 2_000, 1_000, 500, 200, 50, 0];
/** What a record keeps once its body, summary and metadata are gone: what get_record_ref shows, and its version. */
const REF_FIELDS = ["id", "type", "title", "state", "parent_id", "version", "children_count", "open_children_count"];
/** The smallest form: enough to name the record and say where it stands. */
const ID_FIELDS = ["id", "type", "state", "version"];

/** The record `id`, or version `version` of it; UNKNOWN_ID (with a way on) when either is not stored. */
export function openRecordRef(ctx: CommandContext, id: string, version: number | undefined): RecordRefView {
  const row = findRecord(ctx.db, id);
  if (!row) {
    return fail(
      "UNKNOWN_ID",
      `No record ${id} in this workspace.`,
      "Record ids look like R001; call `list_records` or `search_records` to find the record you mean.",
      { id, kind: version === undefined ? "record" : "record_version" },
      [suggest("records.list", {}, "See the records of this workspace")],
    );
  }
  if (version === undefined) return { kind: "record", ref: row.id, record: toRecord(row) };
  const stored = version < 1 ? undefined : findVersion(ctx.db, row.id, version);
  if (!stored) {
    const latest = `${row.id}@v${row.version}`;
    return fail(
      "UNKNOWN_ID",
      `Record ${row.id} has no version ${version}: its versions are v1 to v${row.version}.`,
      `Open ${latest} (its current version) or ${row.id}; call \`get_record_history\` to see what each version changed.`,
      { id: `${row.id}@v${version}`, kind: "record_version", current_version: row.version },
      [
        suggest("open", { id: latest }, `Open ${row.id}'s current version`),
        suggest("records.history", { id: row.id }, `See ${row.id}'s versions`),
      ],
    );
  }
  return { kind: "record_version", ref: `${row.id}@v${version}`, record: versionRecord(row, stored), current_version: row.version };
}

type Payload = Record<string, unknown>;

function pick(record: Payload, fields: string[]): Payload {
  return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));
}

/**
 * A record's answer in smaller forms, largest first: its body cut shorter and shorter (metadata and
 * links kept, then without them), then its ref fields, then its id, type, state and version.
 */
export function recordOpenStubs(original: Payload): Payload[] {
  const head = {
    kind: original.kind,
    ref: original.ref,
    ...(original.current_version === undefined ? {} : { current_version: original.current_version }),
    truncated: true,
  };
  const record = original.record as Payload & { body: string };
  const cuts = BODY_CUTS.filter((cut) => cut < record.body.length);
  const { metadata, related, ...bare } = record;
  const cutForms = (from: Payload) =>
    cuts.map((cut) => ({ ...head, record: { ...from, body: record.body.slice(0, cut) }, content_truncated: true }));
  // Without metadata and links only when it has some: else those forms are the ones above.
  const lean = metadata !== undefined || (Array.isArray(related) && related.length > 0) ? cutForms(bare) : [];
  return [...cutForms(record), ...lean, { ...head, record: pick(record, REF_FIELDS) }, { ...head, record: pick(record, ID_FIELDS) }];
}
