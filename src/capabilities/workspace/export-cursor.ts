/**
 * The export cursor: where the next page starts, and what the export began from. Opaque to callers
 * (base64url of a small JSON object). It records the workspace, the schema version and the change count
 * at the first page; a page whose workspace has moved on refuses to continue (EXPORT_STALE), so every
 * line of one export comes from one state of the workspace. It also carries the line number and the
 * digest so far, which the trailer reports. Signed: `<payload>.<mac>`, an HMAC-SHA256 (node:crypto,
 * synchronous inside the handler's transaction) with the workspace's own key (`cursor_key`, migration
 * 0016, never exported), so an edited or forged cursor is INVALID_CURSOR, never a page that does not fit.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { fail } from "../../shared/errors";
import type { SqlValue } from "../../storage/db";
import { isDigest } from "./export-digest";

/** Longest cursor accepted: its largest part is one row's sort key (a few names of at most 128 characters). */
export const MAX_EXPORT_CURSOR_CHARS = 4_096;

/** What the next line of the export is. */
export type ExportPosition =
  | { at: "header" }
  | { at: "table"; table: number }
  | { at: "rows"; table: number; after: SqlValue[] | null }
  | { at: "trailer" }
  | { at: "done" };

export interface ExportCursor {
  workspace: string;
  schemaVersion: number;
  changeCount: number;
  /** The number of the next line. */
  line: number;
  /** The digest of the lines before it (export-digest.ts). */
  digest: string;
  position: ExportPosition;
}

const CURSOR_VERSION = 1;

function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/** Characters of the MAC kept (base64url): 128 bits. */
const MAC_CHARS = 22;

function macOf(payload: string, key: string): string {
  return createHmac("sha256", key).update(payload).digest("base64url").slice(0, MAC_CHARS);
}

/** The cursor, signed with the workspace's key. */
export function encodeCursor(cursor: ExportCursor, key: string): string {
  const payload = payloadOf(cursor);
  return `${payload}.${macOf(payload, key)}`;
}

function payloadOf(cursor: ExportCursor): string {
  const { position } = cursor;
  return toBase64Url(
    JSON.stringify({
      v: CURSOR_VERSION,
      w: cursor.workspace,
      s: cursor.schemaVersion,
      c: cursor.changeCount,
      n: cursor.line,
      d: cursor.digest,
      at: position.at,
      ...("table" in position ? { t: position.table } : {}),
      ...("after" in position ? { k: position.after } : {}),
    }),
  );
}

function notACursor(): never {
  return fail(
    "INVALID_CURSOR",
    "cursor is not a workspace_export cursor of this workspace, or it was changed.",
    "Pass the cursor of the previous workspace_export page unchanged, or omit it to start the export over.",
    { field: "cursor" },
  );
}

/** The payload of a cursor whose MAC verifies with `key`; anything else is INVALID_CURSOR. */
function verifiedPayload(text: string, key: string): string {
  const dot = text.lastIndexOf(".");
  if (dot <= 0) return notACursor();
  const payload = text.slice(0, dot);
  const given = new TextEncoder().encode(text.slice(dot + 1));
  const expected = new TextEncoder().encode(macOf(payload, key));
  if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return notACursor();
  return payload;
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function positionOf(raw: Record<string, unknown>): ExportPosition {
  const { at, t, k } = raw;
  if (at === "header" || at === "trailer") return { at };
  if (at === "table" && isCount(t)) return { at, table: t };
  if (
    at === "rows" &&
    isCount(t) &&
    (k === null || (Array.isArray(k) && k.every((value) => value === null || ["string", "number"].includes(typeof value))))
  ) {
    return { at, table: t, after: k as SqlValue[] | null };
  }
  return notACursor();
}

export function decodeCursor(text: string, key: string): ExportCursor {
  const payload = verifiedPayload(text, key);
  let raw: unknown;
  try {
    raw = JSON.parse(fromBase64Url(payload));
  } catch {
    return notACursor();
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return notACursor();
  const fields = raw as Record<string, unknown>;
  if (fields.v !== CURSOR_VERSION || typeof fields.w !== "string" || !isCount(fields.s) || !isCount(fields.c) || !isCount(fields.n)) {
    return notACursor();
  }
  if (!isDigest(fields.d)) return notACursor();
  return {
    workspace: fields.w,
    schemaVersion: fields.s,
    changeCount: fields.c,
    line: fields.n,
    digest: fields.d,
    position: positionOf(fields),
  };
}
