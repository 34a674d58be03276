/**
 * Playbooks (seed 001 `think_playbook`): deterministic reasoning skeletons the engine and the agent can
 * point to by name. Each is a short list of steps, each step naming the card type it produces.
 */

export interface PlaybookStep {
  card_type: string;
  title: string;
  hint: string;
}

export interface Playbook {
  name: string;
  purpose: string;
  steps: PlaybookStep[];
}

const step = (card_type: string, title: string, hint: string): PlaybookStep => ({ card_type, title, hint });

export const PLAYBOOKS: readonly Playbook[] = [
  {
    name: "default",
    purpose: "Frame a problem, test one idea, decide.",
    steps: [
      step("frame", "Frame", "What is the problem, and what would solved look like?"),
      step("hypothesis", "Hypothesis", "One falsifiable explanation or proposal."),
      step("test", "Test", "How you will check it (a command, a measurement)."),
      step("evidence", "Evidence", "What the test showed, with CMD: and LINK: receipts."),
      step("decision", "Decision", "What you decided and why; link the evidence."),
    ],
  },
  {
    name: "strict",
    purpose: "Close nothing without a tested hypothesis and a counter-argument.",
    steps: [
      step("hypothesis", "Hypothesis", "The claim the step rests on."),
      step("test", "Test", "A check that could prove it wrong."),
      step("hypothesis", "Counter-hypothesis", "The strongest case against it (tag counter; it blocks the claim)."),
      step("evidence", "Evidence", "Results of the test, with receipts."),
      step("decision", "Decision", "Which side the evidence supports."),
    ],
  },
  {
    name: "breakthrough",
    purpose: "Get unstuck when cards pile up without evidence.",
    steps: [
      step("frame", "Reframe", "State the problem from the user's side, in one sentence."),
      step("question", "Smallest unknown", "The one question whose answer would unblock you."),
      step("test", "Cheapest probe", "The fastest experiment that answers it."),
      step("evidence", "Result", "What the probe showed."),
    ],
  },
  {
    name: "contradiction",
    purpose: "Resolve a card that is both supported and blocked.",
    steps: [
      step("question", "What differs", "Under which conditions does each side hold?"),
      step("test", "Discriminating test", "A check whose outcome differs between the two sides."),
      step("evidence", "Outcome", "The result, with receipts."),
      step("decision", "Resolution", "Which side holds, and set the other's status."),
    ],
  },
  {
    name: "experiment",
    purpose: "Prove a decision before relying on it.",
    steps: [
      step("hypothesis", "Prediction", "What should happen if the decision is right."),
      step("test", "Experiment", "Setup, measurement, and the threshold for success."),
      step("evidence", "Measurement", "The numbers, with receipts."),
      step("update", "Update", "Keep, change or revert the decision."),
    ],
  },
  {
    name: "criteria_matrix",
    purpose: "Choose between options on explicit criteria.",
    steps: [
      step("frame", "Options", "List the options being compared."),
      step("note", "Criteria", "The criteria and their weights."),
      step("evidence", "Scores", "Each option against each criterion, with sources."),
      step("decision", "Choice", "The option with the best weighted score, and the runner-up."),
    ],
  },
  {
    name: "debug",
    purpose: "Find a fault by narrowing it down.",
    steps: [
      step("frame", "Symptom", "What fails, where, and since when."),
      step("test", "Reproduction", "The smallest command that shows the failure."),
      step("hypothesis", "Suspect", "Where the fault most likely is (bisect the range)."),
      step("evidence", "Confirmation", "The change that makes the failure disappear."),
      step("decision", "Fix", "What you change, and the test that guards it."),
    ],
  },
  {
    name: "skeptic",
    purpose: "Attack a conclusion before others rely on it.",
    steps: [
      step("hypothesis", "Strongest objection", "The best argument that the conclusion is wrong (tag counter)."),
      step("test", "Disconfirming test", "A check that would show the objection is right."),
      step("evidence", "Result", "What the check showed."),
      step("update", "Verdict", "Keep or revise the conclusion."),
    ],
  },
];

export function findPlaybook(name: string): Playbook | undefined {
  return PLAYBOOKS.find((playbook) => playbook.name === name);
}
