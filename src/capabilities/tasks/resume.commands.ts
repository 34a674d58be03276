/**
 * `tasks_resume_super` (seed 003): everything needed to resume a plan or task in one bounded call. The
 * view itself (views focus_only / smart / explore / audit / full / compact, section sizes, the capsule)
 * is built by resume-view.ts, which `tasks_snapshot` (snapshot.commands.ts) and `open` share.
 */
import { defineCommand } from "../../commands/registry";
import { RESUME_BUDGET } from "./resume.budget";
import { resumeInput, resumeOutput, resumeView } from "./resume-view";

export const tasksResumeSuper = defineCommand({
  name: "tasks.resume_super",
  tool: "tasks_resume_super",
  aliases: ["tasks.resume"],
  title: "Resume a task",
  description:
    "Everything needed to resume a plan or task (default: your focus) in one bounded call: radar, step focus (with its lease), steps, timeline, signals (blockers, decisions, evidence), notes, trace and cards, and the capsule (where / why / next: 1 best + 1 backup action). view: focus_only | smart | explore | audit | full (default full, or smart when a budget is given); *_limit overrides a section (0 turns it off). Under a tight budget sections shrink first; the capsule stays.",
  kind: "read",
  input: resumeInput,
  output: resumeOutput,
  budget: RESUME_BUDGET,
  handler: (ctx, args) => resumeView(ctx, args, "tasks_resume_super"),
});
