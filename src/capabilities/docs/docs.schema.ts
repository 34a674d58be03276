/** Zod shapes shared by the document commands: entry output, content input, doc names. */
import { z } from "zod";
import { MAX_CONTENT_BYTES, MAX_TITLE_CHARS } from "../../shared/limits";
import { nameSchema } from "../../shared/names";

export const entrySchema = z.object({
  seq: z.number(),
  ts: z.string(),
  ts_ms: z.number(),
  branch: z.string(),
  doc: z.string(),
  kind: z.enum(["note", "event"]),
  agent_id: z.string(),
  title: z.string().optional(),
  format: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  content: z.string(),
});
export type Entry = z.infer<typeof entrySchema>;

/** When the budget trims an entry, these fields survive. */
export const ENTRY_KEEP = ["seq", "ts", "branch", "doc", "kind", "title"];

export const docSchema = nameSchema("Document name, e.g. `notes` or `trace`.");
export const branchArg = nameSchema("Branch name; defaults to your checkout.");

export const contentFields = {
  content: z.string().min(1).max(MAX_CONTENT_BYTES).describe(`Entry text (at most ${MAX_CONTENT_BYTES} UTF-8 bytes).`),
  title: z.string().max(MAX_TITLE_CHARS).optional(),
  format: z.string().max(32).optional().describe("e.g. `text`, `markdown`."),
  meta: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Small JSON object stored with the entry; lane, event_id, card_id and card_type are the server's (refused)."),
};
