/**
 * Task and plan templates for `tasks_macro_start` and `tasks_templates_list`. A task template is a
 * list of steps (with proof modes where the template demands proof); a plan template is a checklist
 * written into the plan's contract (plans carry no steps).
 */

import type { ProofMode } from "../../place/target.schema";
import type { NewStep, ProofCheckpoint } from "./tasks.schema";

export interface TemplateStep extends NewStep {
  proof_modes?: Partial<Record<ProofCheckpoint, ProofMode>>;
}

export interface TaskTemplate {
  id: string;
  kind: "task";
  title: string;
  steps: TemplateStep[];
}

export interface PlanTemplate {
  id: string;
  kind: "plan";
  title: string;
  checklist: string[];
}

export type Template = TaskTemplate | PlanTemplate;

export const TEMPLATES: readonly Template[] = [
  {
    id: "basic-task",
    kind: "task",
    title: "Clarify, implement, verify",
    steps: [
      {
        title: "Clarify the goal and the done criteria",
        success_criteria: ["The expected outcome is written down"],
        tests: ["Re-read the criteria against the request"],
      },
      { title: "Implement", success_criteria: ["The change does what the criteria say"], tests: ["Run the relevant checks"] },
      { title: "Verify", success_criteria: ["Every criterion is met"], tests: ["Run the full check suite"] },
    ],
  },
  {
    id: "principal-task",
    kind: "task",
    title: "Frame, design, implement, prove, hand off",
    steps: [
      {
        title: "Frame the problem and its constraints",
        success_criteria: ["Goal, constraints and risks are recorded"],
        tests: ["Review the frame against the request"],
      },
      {
        title: "Design and choose an approach",
        success_criteria: ["The chosen approach and the rejected ones are recorded"],
        tests: ["Check the design against the constraints"],
      },
      { title: "Implement", success_criteria: ["The change follows the design"], tests: ["Run the relevant checks"] },
      {
        title: "Verify with proofs (CMD: and LINK: receipts)",
        success_criteria: ["Every criterion is met and proven"],
        tests: ["Run the full check suite and attach its receipts"],
        proof_modes: { tests: "require" },
      },
      {
        title: "Hand off: summarize what changed and what remains",
        success_criteria: ["A handoff note exists"],
        tests: ["Read the note as a newcomer"],
      },
    ],
  },
  {
    id: "basic-plan",
    kind: "plan",
    title: "Scope, deliver, review",
    checklist: ["Scope: what is in and what is out", "Deliver: the tasks that make it real", "Review: check the outcome against the scope"],
  },
  {
    id: "principal-plan",
    kind: "plan",
    title: "Principal plan",
    checklist: [
      "Problem statement and success metrics",
      "Constraints and non-goals",
      "Risks and their mitigations",
      "Options considered and the decision",
      "Milestones",
      "Task breakdown with owners",
      "Verification and proof strategy",
      "Rollout and rollback",
      "Retrospective",
    ],
  },
];

export function findTemplate(id: string): Template | undefined {
  return TEMPLATES.find((template) => template.id === id);
}

export function checklistContract(template: PlanTemplate): string {
  return template.checklist.map((item) => `- [ ] ${item}`).join("\n");
}
