/** Zod shape of the signal engine's block in read answers (context_pack, resume views). */
import { z } from "zod";
import { suggestionSchema } from "../../shared/suggestion";

const refs = z.array(z.object({ kind: z.literal("card"), id: z.string() }));

export const engineSchema = z.object({
  mode: z.enum(["global", "step_aware"]),
  step_tag: z.string().optional(),
  signals: z.array(z.object({ code: z.string(), severity: z.enum(["critical", "high", "warning", "info"]), message: z.string(), refs })),
  actions: z.array(
    z.object({
      kind: z.string(),
      priority: z.enum(["high", "medium", "low"]),
      title: z.string(),
      why: z.string(),
      refs,
      calls: z.array(suggestionSchema),
    }),
  ),
});
