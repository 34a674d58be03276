/**
 * What each MCP prompt (worker/prompts.ts) says: the golden paths of docs/prompts.md, each a short
 * introduction, the calls to make in order (neutral suggestions, rendered later for the connection
 * that asked) and a closing line. Only the words and the choice of commands live here, in the catalog
 * seam, so that the Worker names no command; argument checks, workspace resolution and rendering are
 * worker/prompts.ts's.
 *
 * Argument values go only into call arguments, where the renderer writes them as JSON strings, and,
 * quoted with JSON.stringify, into prose: a value can neither break a call nor pass for text of ours.
 */
import { fill, type Suggestion, suggest } from "../shared/suggestion";

/** An argument a prompt takes, in the shape of MCP's PromptArgument (worker/prompts.ts lists it as is). */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** One call of a prompt, with when to make it if not always. */
export interface PromptStep {
  call: Suggestion;
  when?: string;
}

/** The arguments a `prompts/get` passed, checked: a missing optional one is absent, required ones are present. */
export type PromptArgs = Readonly<Partial<Record<string, string>>>;

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
  /** The opening sentence; `where` names the workspace as the calls will use it. */
  intro: (args: PromptArgs, where: string) => string;
  steps: (args: PromptArgs) => PromptStep[];
  outro: (args: PromptArgs) => string;
}

const WORKSPACE_ARGUMENT: PromptArgument = {
  name: "workspace",
  description:
    "The workspace (a Record-Sync project is one), e.g. acme/app. Omit on a /w/<workspace>/mcp URL or when your token names one.",
  required: false,
};
const TASK_ARGUMENT: PromptArgument = {
  name: "task",
  description: "A plan or task id (TASK-001, PLAN-001). Default: your focus.",
  required: false,
};

/** A required argument, present once prompts.ts has checked the call (the guard is for the type only). */
function given(args: PromptArgs, name: string): string {
  const value = args[name];
  if (value === undefined) throw new Error(`prompt argument ${name} was not checked`);
  return value;
}

/** `{target}` when the caller named a plan or task, else nothing (the command then uses the focus). */
function targetOf(args: PromptArgs): { target?: string } {
  return args.task === undefined ? {} : { target: args.task };
}

/** The session a Record-Sync chat keeps: `activate` or the root `create` returns it. */
const SESSION = fill("session_id");

const resumeWork: PromptDefinition = {
  name: "resume_work",
  title: "Resume work",
  description:
    "Pick up work in a workspace: where you are, the resume view of your focus (or a task), the jobs waiting, then the best next action.",
  arguments: [WORKSPACE_ARGUMENT, TASK_ARGUMENT],
  intro: (_args, where) => `Resume work in ${where}.`,
  steps: (args) => [
    { call: suggest("system.status", {}, "Where you are, where your writes land, 1 best + 1 backup next action") },
    {
      call: suggest(
        "tasks.snapshot",
        targetOf(args),
        `The resume view of ${args.task === undefined ? "your focus" : JSON.stringify(args.task)}`,
      ),
      when: args.task === undefined ? "when status shows a focus; else make the action status suggests" : undefined,
    },
    { call: suggest("jobs.radar", {}, "Jobs queued or running") },
  ],
  outro: () => "Then make the capsule's next.action of the last answer: it is a ready call too.",
};

const handOff: PromptDefinition = {
  name: "hand_off",
  title: "Hand off to another agent",
  description:
    "Leave your work for another agent: a handoff note on the task, your step lease released, a job queued for them, your focus cleared.",
  arguments: [
    { name: "to_agent", description: "The agent taking over (its agent id).", required: true },
    WORKSPACE_ARGUMENT,
    TASK_ARGUMENT,
  ],
  intro: (args, where) => `Hand off your work in ${where} to ${JSON.stringify(given(args, "to_agent"))}.`,
  steps: (args) => {
    const toAgent = given(args, "to_agent");
    const target = targetOf(args);
    return [
      { call: suggest("tasks.snapshot", target, "What stands: steps done, the open step, its lease") },
      {
        call: suggest(
          "vcs.notes.commit",
          {
            ...target,
            title: `Handoff to ${toAgent}`,
            content: fill("what is done, what remains, where to start"),
            meta: { handoff_to: toAgent },
          },
          "The handoff note, in the task's notes",
        ),
      },
      { call: suggest("tasks.step.lease.release", { ...target, step: "focus" }, "Free the open step"), when: "if you hold its lease" },
      {
        call: suggest(
          "jobs.create",
          {
            title: `Handoff to ${toAgent}`,
            prompt: fill("what to do next, and the handoff note's seq"),
            ...(args.task === undefined ? {} : { task: args.task }),
            meta: { for_agent: toAgent },
          },
          "Queue the work (meta.for_agent addresses it: their status offers it first)",
        ),
      },
      { call: suggest("tasks.focus.clear", {}, "Your status stops pointing at the work") },
    ];
  },
  outro: (args) =>
    `${JSON.stringify(given(args, "to_agent"))} then claims the job (the queuing call answers its id) and runs the resume_work prompt.`,
};

/** A Record-Sync session's last steps, as seed 004 patterns 1 and 2 end: a record under `parent`, save, close. */
function reasonSaveClose(parent: string, type: string): PromptStep[] {
  return [
    {
      call: suggest(
        "records.create",
        { parent_id: fill(parent), type, title: fill("title"), summary: fill("1-2 sentences"), body: fill("body"), session_id: SESSION },
        "Reason under it",
      ),
    },
    { call: suggest("records.save_session", { session_id: SESSION, summary: fill("what you did") }, "Save") },
    { call: suggest("records.close_session", { session_id: SESSION }, "End the session") },
  ];
}

const continueTopic: PromptDefinition = {
  name: "continue_topic",
  title: "Continue a Record-Sync topic",
  description: "Seed 004 pattern 1: orient in the project, find the record, activate it in a session, reason under it, save, close.",
  arguments: [{ name: "topic", description: "Words to find the topic's record by.", required: true }, WORKSPACE_ARGUMENT],
  intro: (args, where) => `Continue the topic ${JSON.stringify(given(args, "topic"))} in ${where}.`,
  steps: (args) => [
    { call: suggest("records.project.overview", {}, "Open sessions, open and LATER records, recent activity") },
    { call: suggest("records.search", { query: given(args, "topic"), limit: 5 }, "Find the record") },
    { call: suggest("records.activate", { id: fill("record id") }, "Load it with its context; keep its session_id") },
    { call: suggest("records.sync", { session_id: SESSION }, "Pull other sessions' changes"), when: "when an answer says stale" },
    ...reasonSaveClose("record id", "note"),
  ],
  outro: () => "",
};

const startTopic: PromptDefinition = {
  name: "start_topic",
  title: "Start a Record-Sync topic",
  description:
    "Seed 004 pattern 2: check that the topic does not exist, create its root question (which starts a session), reason under it, save, close.",
  arguments: [
    { name: "topic", description: "The question the topic is about (the root record's title).", required: true },
    WORKSPACE_ARGUMENT,
  ],
  intro: (args, where) => `Start the topic ${JSON.stringify(given(args, "topic"))} in ${where}.`,
  steps: (args) => [
    { call: suggest("records.project.overview", {}, "What the project holds") },
    { call: suggest("records.search", { query: given(args, "topic"), limit: 5 }, "Confirm it does not exist (else use continue_topic)") },
    {
      call: suggest(
        "records.create",
        { parent_id: null, type: "question", title: given(args, "topic"), summary: fill("1-2 sentences"), body: fill("body") },
        "The root question: activated, starts a session; keep its id and session_id",
      ),
    },
    ...reasonSaveClose("question id", "hypothesis"),
  ],
  outro: () => "",
};

const reasoningPipeline: PromptDefinition = {
  name: "reasoning_pipeline",
  title: "Start a reasoning pipeline",
  description:
    "Frame a question as linked cards: the frame skeleton (reasoning.seed), then frame → hypothesis → test in one write (reasoning.pipeline), then the next move.",
  arguments: [
    { name: "question", description: "What to decide or find out (the frame card).", required: true },
    WORKSPACE_ARGUMENT,
    { name: "task", description: "A plan or task id whose graph takes the cards. Default: your checkout.", required: false },
  ],
  intro: (args, where) => `Reason about ${JSON.stringify(given(args, "question"))} in ${where}.`,
  steps: (args) => [
    { call: suggest("think.template", {}, "The frame card's fields") },
    {
      call: suggest(
        "think.pipeline",
        { ...targetOf(args), frame: given(args, "question"), hypothesis: fill("your best answer"), test: fill("how to check it") },
        "Frame → hypothesis → test, linked, in one write",
      ),
    },
    { call: suggest("think.next", targetOf(args), "The next move: ready calls for evidence and the decision") },
  ],
  outro: () => "",
};

export const PROMPT_DEFINITIONS: readonly PromptDefinition[] = [resumeWork, handOff, continueTopic, startTopic, reasoningPipeline];
