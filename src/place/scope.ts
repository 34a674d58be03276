/**
 * Where a reasoning command (notes, show, export, graph) acts when it can be aimed at a plan or task,
 * per seed 001's focus-first rule: an explicit `target` > an explicit `branch` > the caller's focus >
 * the caller's checkout. A target (explicit or from focus) resolves to its reasoning ref: the canonical
 * branch and its notes, trace and graph docs. A target and a branch together are refused.
 *
 * Think and trace commands (cards) skip the focus: explicit target > explicit branch > checkout. So with
 * a focus, a note and a card given no place land in different branches; `landingOf` states both, and
 * every answer that says "where" reports it (docs/portals.md, "Where writes land").
 */
import type { CommandContext } from "../commands/context";
import { fail } from "../shared/errors";
import { type Branch, checkoutOf, requireBranch } from "./branches.store";

import { DEFAULT_DOCS } from "./documents";
import { focusOf } from "./focus.store";
import type { ReasoningRef, TargetArg } from "./target.schema";
import { canonicalBranch, explicitTarget, reasoningRef } from "./targets";
import { requireEntity } from "./targets.store";

export interface Scope {
  branch: Branch;
  /** Set when the call acts on a plan or task (explicitly or through focus). */
  target?: string;
  ref?: ReasoningRef;
}

/**
 * `useFocus: false` is for the tools seed 001 sends to the checkout rather than the focus (think and
 * trace tools): explicit target > explicit branch > checkout.
 */
export function reasoningScope(
  ctx: CommandContext,
  args: { target?: TargetArg | undefined; branch?: string | undefined; doc?: string | undefined },
  access: "read" | "write",
  options: { useFocus?: boolean } = {},
): Scope {
  const explicit = explicitTarget({ target: args.target });
  if (explicit !== undefined && args.branch !== undefined) {
    fail("INVALID_INPUT", "Give target or branch, not both: a target's branch is its reasoning branch.", "Drop branch (or target).", {
      fields: ["target", "branch"],
    });
  }
  // A branch or a doc names a place explicitly: the focus only fills in when neither is given.
  const explicitPlace = args.branch !== undefined || args.doc !== undefined;
  const fromFocus = !explicitPlace && options.useFocus !== false ? focusOf(ctx.db, ctx.principal.agent_id) : undefined;
  const id = explicit ?? fromFocus;
  if (id === undefined) return { branch: targetBranch(ctx, args.branch) };
  const entity = requireEntity(ctx.db, id);
  const ref = reasoningRef(entity.id);
  // Writes create the canonical branch if needed; reads never write (every task mutation creates it).
  const branch = access === "write" ? canonicalBranch(ctx, entity.id) : requireBranch(ctx.db, ref.branch);
  return { branch, target: entity.id, ref };
}

/** A doc given together with a target is refused where the target decides the doc. */
export function refuseDocWithTarget(scope: Scope, doc: string | undefined, instead: string): void {
  if (scope.target !== undefined && doc !== undefined) {
    fail("INVALID_INPUT", `With a target (here ${scope.target}), the document comes from its reasoning ref.`, instead, {
      fields: ["target", "doc"],
    });
  }
}

/** Where a write given no target, branch or doc lands, and which rule put it there. */
export interface Landing {
  branch: string;
  doc: string;
  by: "focus" | "checkout";
}

/**
 * Where the caller's next note (notes commit, `show` of notes: focus-first) and next card (think and
 * trace tools: checkout) land when the call names no place. One rule, read by every capsule and by
 * `status`, so no answer can disagree with where a write goes. `known`: the checkout and focus when the
 * caller has read them already.
 */
export function landingOf(
  ctx: CommandContext,
  known?: { checkout: string; focus: string | undefined },
): { notes: Landing; cards: Landing } {
  const checkout = known?.checkout ?? checkoutOf(ctx.db, ctx.principal.agent_id).name;
  const focus = known ? known.focus : focusOf(ctx.db, ctx.principal.agent_id);
  const focusRef = focus === undefined ? undefined : reasoningRef(focus);
  return {
    notes: focusRef
      ? { branch: focusRef.branch, doc: focusRef.notes_doc, by: "focus" }
      : { branch: checkout, doc: DEFAULT_DOCS.notes, by: "checkout" },
    cards: { branch: checkout, doc: DEFAULT_DOCS.graph, by: "checkout" },
  };
}

/** The branch a call names, else the caller's checkout: where a call given no target acts. */
export function targetBranch(ctx: CommandContext, name: string | undefined): Branch {
  return name === undefined ? checkoutOf(ctx.db, ctx.principal.agent_id) : requireBranch(ctx.db, name);
}
