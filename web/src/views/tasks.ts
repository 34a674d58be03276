/**
 * Plans and tasks (`tasks.context`), and for the chosen one its resume view (`tasks.resume_super`):
 * the radar (now, why, verify, next, blockers), the capsule (where / why / next action), recent task
 * events, and every step with its checkpoints and live lease — holder and expiry on the workspace
 * tick clock — read one step at a time with `open STEP-…`.
 */
import { read } from "../api";
import { badge, el, table } from "../dom";
import { time } from "../format";
import { href } from "../router";
import { onClick } from "./actions";
import type { ViewContext } from "./context";

interface Entity {
  id: string;
  kind: "plan" | "task";
  title: string;
  status: string;
  plan_id?: string;
  priority?: string;
  revision?: number;
}

interface ContextPage {
  counts: { plans: number; tasks: number };
  plans: Entity[];
  tasks: Entity[];
  plans_pagination: { has_more: boolean; next_cursor?: string };
  tasks_pagination: { has_more: boolean; next_cursor?: string };
}

interface Lease {
  holder: string;
  expires_tick: number;
  acquired_tick?: number;
}

interface StepSummary {
  id: string;
  path: string;
  title: string;
  completed: boolean;
  blocked: boolean;
}

interface StepDetail extends StepSummary {
  checkpoints: Record<string, boolean>;
  proof_modes?: Record<string, string>;
  success_criteria: string[];
  tests: string[];
  blockers: string[];
}

interface Resume {
  target: Entity & { description?: string; contract?: string; tags?: string[] };
  radar: { now: string; why: string; verify: string[]; next: string[]; blockers: string[] };
  steps: StepSummary[];
  step_focus?: { step: StepDetail; lease: Lease | null } | null;
  timeline?: { events: { event_id: string; tick: number; ts_ms: number; type: string; path?: string }[] };
  capsule?: {
    where?: Record<string, unknown>;
    why?: string[];
    next?: { action?: { tool: string; args: unknown; purpose?: string }; backup?: { tool: string; args: unknown; purpose?: string } };
  };
  reasoning_ref?: { branch: string; notes_doc: string; trace_doc: string; graph_doc: string };
}

/** Plans and tasks per list page: the largest page of tasks.context. */
const LIST_PAGE = 200;
/** Steps whose detail (checkpoints, lease) is read, a few calls at a time. */
const MAX_STEP_DETAILS = 100;
const STEP_BATCH = 10;

function entityLink(context: ViewContext, entity: Entity, selected: string | undefined): HTMLElement {
  return el(
    "li",
    { class: entity.id === selected ? "selected" : "", testid: "task-item", data: { id: entity.id } },
    el("a", { href: href("tasks", context.workspace, { target: entity.id }) }, `${entity.id} ${entity.title}`),
    " ",
    badge(entity.status, `status-${entity.status.toLowerCase()}`),
  );
}

function checkpointCells(step: StepDetail | undefined): HTMLElement {
  if (!step) return el("span", { class: "muted" }, "—");
  return el(
    "span",
    { class: "checkpoints" },
    ...Object.entries(step.checkpoints).map(([name, done]) =>
      el(
        "span",
        {
          class: done ? "check done" : "check",
          title: `${name}: ${done ? "confirmed" : "not confirmed"}${step.proof_modes?.[name] && step.proof_modes[name] !== "off" ? ` (proof ${step.proof_modes[name]})` : ""}`,
        },
        `${done ? "✓" : "·"} ${name}`,
      ),
    ),
  );
}

async function stepDetails(context: ViewContext, steps: StepSummary[]): Promise<Map<string, { step: StepDetail; lease: Lease | null }>> {
  const details = new Map<string, { step: StepDetail; lease: Lease | null }>();
  const wanted = steps.slice(0, MAX_STEP_DETAILS);
  for (let start = 0; start < wanted.length; start += STEP_BATCH) {
    const batch = await Promise.all(
      wanted
        .slice(start, start + STEP_BATCH)
        .map((step) => read<{ step: StepDetail; lease?: Lease | null }>("open", context.workspace, { id: step.id }, context.signal)),
    );
    for (const opened of batch) details.set(opened.step.id, { step: opened.step, lease: opened.lease ?? null });
  }
  return details;
}

async function renderDetail(into: HTMLElement, context: ViewContext, id: string, entities: Entity[]): Promise<void> {
  const [resume, status] = await Promise.all([
    read<Resume>("tasks.resume_super", context.workspace, { target: id, view: "full" }, context.signal),
    read<{ tick: number }>("system.status", context.workspace, {}, context.signal),
  ]);
  const details = await stepDetails(context, resume.steps);
  const { target, radar, capsule } = resume;
  const nowTick = status.tick;
  const stepRows = resume.steps.map((step) => {
    const detail = details.get(step.id);
    const lease = detail?.lease ?? null;
    const state = step.completed ? "done" : step.blocked ? "blocked" : "open";
    return [
      step.path,
      step.title,
      badge(state, `status-${state}`),
      checkpointCells(detail?.step),
      lease ? el("span", { testid: "lease-holder" }, lease.holder) : el("span", { class: "muted" }, "no lease"),
      lease
        ? el("span", { testid: "lease-expiry" }, `tick ${lease.expires_tick} (${Math.max(0, lease.expires_tick - nowTick)} ticks left)`)
        : "",
    ];
  });
  const plannedTasks = target.kind === "plan" ? entities.filter((entity) => entity.plan_id === target.id) : [];
  const action = (label: string, next?: { tool: string; args: unknown; purpose?: string }) =>
    next
      ? el("li", {}, `${label}: `, el("code", {}, `${next.tool} ${JSON.stringify(next.args)}`), next.purpose ? ` — ${next.purpose}` : "")
      : null;

  into.replaceChildren(
    el(
      "article",
      { testid: "task-detail", data: { id: target.id } },
      el("h3", {}, `${target.id}: ${target.title}`),
      el(
        "p",
        {},
        badge(target.kind),
        " ",
        badge(target.status, `status-${target.status.toLowerCase()}`),
        " ",
        target.priority ? badge(target.priority) : null,
        target.plan_id
          ? el("span", {}, " in ", el("a", { href: href("tasks", context.workspace, { target: target.plan_id }) }, target.plan_id))
          : null,
        resume.reasoning_ref
          ? el(
              "span",
              { class: "muted" },
              " · reasoning: ",
              el(
                "a",
                { href: href("timeline", context.workspace, { branch: resume.reasoning_ref.branch, doc: resume.reasoning_ref.trace_doc }) },
                "trace",
              ),
              " · ",
              el(
                "a",
                { href: href("graph", context.workspace, { branch: resume.reasoning_ref.branch, doc: resume.reasoning_ref.graph_doc }) },
                "graph",
              ),
            )
          : null,
      ),
      el(
        "section",
        { class: "radar", testid: "radar" },
        el("h4", {}, "Radar"),
        el("p", {}, el("strong", {}, "Now: "), radar.now),
        radar.why ? el("p", {}, el("strong", {}, "Why: "), radar.why) : null,
        radar.verify.length > 0 ? el("p", {}, el("strong", {}, "Verify: "), radar.verify.join("; ")) : null,
        radar.next.length > 0 ? el("p", {}, el("strong", {}, "Next: "), radar.next.join("; ")) : null,
        radar.blockers.length > 0 ? el("p", {}, el("strong", {}, "Blockers: "), radar.blockers.join("; ")) : null,
      ),
      capsule
        ? el(
            "section",
            { class: "capsule", testid: "capsule" },
            el("h4", {}, "Capsule"),
            capsule.where
              ? el(
                  "p",
                  {},
                  el("strong", {}, "Where: "),
                  Object.entries(capsule.where)
                    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
                    .join(" · "),
                )
              : null,
            capsule.why && capsule.why.length > 0 ? el("p", {}, el("strong", {}, "Why: "), capsule.why.join("; ")) : null,
            el("ul", {}, action("Best next", capsule.next?.action), action("Backup", capsule.next?.backup)),
          )
        : null,
      el("h4", {}, `Steps (${resume.steps.length})`),
      resume.steps.length === 0
        ? el("p", { class: "muted" }, target.kind === "plan" ? "Plans have tasks, not steps." : "No steps.")
        : table(["Path", "Step", "State", "Checkpoints", "Lease holder", "Lease expires"], stepRows, { testid: "steps" }, (index) => ({
            testid: "step-row",
            data: { step: resume.steps[index]?.id ?? "" },
          })),
      el("p", { class: "muted" }, `Workspace tick now: ${nowTick}. Leases expire on this tick clock, not on wall time.`),
      plannedTasks.length > 0 ? el("h4", {}, `Tasks of ${target.id}`) : null,
      plannedTasks.length > 0 ? el("ul", {}, ...plannedTasks.map((entity) => entityLink(context, entity, undefined))) : null,
      resume.timeline && resume.timeline.events.length > 0
        ? el(
            "details",
            { attrs: { open: "" } },
            el("summary", {}, `Recent events (${resume.timeline.events.length})`),
            table(
              ["Tick", "Event", "Step", "Time"],
              [...resume.timeline.events].reverse().map((event) => [String(event.tick), event.type, event.path ?? "", time(event.ts_ms)]),
            ),
          )
        : null,
    ),
  );
}

export async function renderTasks(context: ViewContext): Promise<void> {
  const selected = context.params.get("target") ?? undefined;
  const plansList = el("ul", { class: "entity-list", testid: "plans" });
  const tasksList = el("ul", { class: "entity-list", testid: "tasks" });
  const morePlans = el("button", { attrs: { type: "button", hidden: "" } }, "More plans");
  const moreTasks = el("button", { attrs: { type: "button", hidden: "" } }, "More tasks");
  const status = el("p", { class: "muted" });
  const detail = el("div", { class: "detail" }, el("p", { class: "muted" }, "Pick a plan or a task."));
  context.root.append(
    el(
      "section",
      { testid: "tasks-view" },
      el("h2", {}, "Plans and tasks"),
      el(
        "div",
        { class: "split" },
        el(
          "div",
          { class: "list-column" },
          el("h3", {}, "Plans"),
          plansList,
          morePlans,
          el("h3", {}, "Tasks"),
          tasksList,
          moreTasks,
          status,
        ),
        detail,
      ),
    ),
  );

  const entities: Entity[] = [];
  let plansCursor: string | undefined;
  let tasksCursor: string | undefined;
  const loadLists = async (which: "both" | "plans" | "tasks") => {
    const page = await read<ContextPage>(
      "tasks.context",
      context.workspace,
      {
        plans_limit: which === "tasks" ? 0 : LIST_PAGE,
        tasks_limit: which === "plans" ? 0 : LIST_PAGE,
        ...(plansCursor ? { plans_cursor: plansCursor } : {}),
        ...(tasksCursor ? { tasks_cursor: tasksCursor } : {}),
      },
      context.signal,
    );
    entities.push(...page.plans, ...page.tasks);
    plansList.append(...page.plans.map((entity) => entityLink(context, entity, selected)));
    tasksList.append(...page.tasks.map((entity) => entityLink(context, entity, selected)));
    if (which !== "tasks") {
      plansCursor = page.plans_pagination.next_cursor;
      morePlans.toggleAttribute("hidden", !page.plans_pagination.has_more);
    }
    if (which !== "plans") {
      tasksCursor = page.tasks_pagination.next_cursor;
      moreTasks.toggleAttribute("hidden", !page.tasks_pagination.has_more);
    }
    status.textContent = `${page.counts.plans} plans, ${page.counts.tasks} tasks in this workspace.`;
  };
  onClick(morePlans, status, () => loadLists("plans"));
  onClick(moreTasks, status, () => loadLists("tasks"));
  await loadLists("both");
  if (entities.length === 0) {
    detail.replaceChildren(el("p", { class: "muted", testid: "tasks-empty" }, "No plans or tasks in this workspace."));
    return;
  }
  if (selected) await renderDetail(detail, context, selected, entities);
}
