/**
 * The capsule's smaller forms for the smallest budgets (docs/portals.md "The capsule"): the compact
 * capsule keeps the ids of `where` and the best action, whole and pasteable but for its purpose; the
 * last rung keeps the best action alone. Both are cut from a capsule as it is sent (rendered).
 */
import type { RenderedSuggestion } from "../../shared/suggestion";
import type { CapsuleWhere } from "./capsule";

/** A capsule as it is sent: its suggestions rendered. */
export interface RenderedCapsule {
  where: CapsuleWhere;
  next: { action: RenderedSuggestion };
}

function bestAction(capsule: RenderedCapsule): Omit<RenderedSuggestion, "purpose"> {
  const { purpose: _purpose, ...action } = capsule.next.action;
  return action;
}

/** The capsule for the last rung of a budget: the best action alone, whole and pasteable. */
export function actionOnlyCapsule(capsule: RenderedCapsule) {
  return { next: { action: bestAction(capsule) } };
}

/** The ids of `where`: what the compact capsule keeps of it. */
function whereIds(where: CapsuleWhere) {
  return {
    workspace: where.workspace,
    branch: where.branch,
    focus: where.focus,
    target: where.target === null ? null : { id: where.target.id },
    step_focus: where.step_focus === null ? null : { step_id: where.step_focus.step_id },
  };
}

/** The compact capsule, from a rendered one: the ids of `where` and the best action without its purpose. */
export function compactCapsule(capsule: RenderedCapsule) {
  return { where: whereIds(capsule.where), next: { action: bestAction(capsule) } };
}

/**
 * The compact capsule a view asks for (`view: "compact"`), from a capsule not yet rendered: the ids of
 * `where` and the best action, still a suggestion (rendered for the connection like any other).
 */
export function compactCapsuleOf<A>(capsule: { where: CapsuleWhere; next: { action: A } }) {
  return { where: whereIds(capsule.where), next: { action: capsule.next.action } };
}
