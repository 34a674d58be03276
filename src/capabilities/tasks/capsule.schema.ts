/** Zod shape of the capsule (tasks/capsule.ts) as answers carry it: its suggestions rendered. */
import { z } from "zod";
import { suggestionSchema } from "../../shared/suggestion";

export const landingSchema = z.object({ branch: z.string(), doc: z.string(), by: z.enum(["focus", "checkout"]) });

export const capsuleWhereSchema = z.object({
  workspace: z.string(),
  branch: z.string(),
  docs: z.object({ notes: z.string(), trace: z.string(), graph: z.string() }),
  writes: z.object({ notes: landingSchema, cards: landingSchema }),
  focus: z.string().nullable(),
  target: z.object({ id: z.string(), kind: z.string(), title: z.string(), status: z.string(), revision: z.number() }).nullable(),
  step_focus: z
    .object({
      step_id: z.string(),
      path: z.string(),
      title: z.string(),
      lease: z.object({ holder: z.string(), expires_tick: z.number() }).optional(),
    })
    .nullable(),
  lane: z.string(),
});

export const capsuleShape = {
  where: capsuleWhereSchema,
  why: z.array(z.string()),
  next: z.object({ action: suggestionSchema, backup: suggestionSchema }),
};
