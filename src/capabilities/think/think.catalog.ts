/** The think capability's commands (cards, context, query, links, pins, publish), in catalog order. */

import { anchorMacroNote } from "./anchor-note.commands";
import { THINK_ADD_COMMANDS, thinkCard } from "./card-write.commands";
import { thinkFrontierGraph } from "./frontier-graph.commands";
import { macroBranchNote } from "./idea-branch.commands";
import { ideaBranchMerge } from "./idea-merge.commands";
import { thinkFrontier, thinkNext, thinkPlaybook, thinkWatch } from "./next.commands";
import { contextPack, thinkPack } from "./packs.commands";
import { thinkNominalMerge, thinkSubgoalClose, thinkSubgoalOpen } from "./subgoals.commands";
import {
  thinkContext,
  thinkLink,
  thinkPin,
  thinkPins,
  thinkPipeline,
  thinkPublish,
  thinkQuery,
  thinkSetStatus,
  thinkTemplate,
} from "./think.commands";

export const THINK_COMMANDS = [
  thinkTemplate,
  thinkCard,
  ...THINK_ADD_COMMANDS,
  thinkPipeline,
  thinkContext,
  thinkQuery,
  thinkLink,
  thinkSetStatus,
  thinkPin,
  thinkPins,
  thinkPublish,
  thinkPack,
  contextPack,
  thinkFrontier,
  thinkFrontierGraph,
  thinkNext,
  thinkWatch,
  thinkPlaybook,
  thinkSubgoalOpen,
  thinkSubgoalClose,
  thinkNominalMerge,
];

/**
 * The idea-branch commands (`think.idea.branch.*`): listed in the catalog beside the branch commands,
 * where the daily toolset and the reference have always shown them.
 */
export const IDEA_BRANCH_COMMANDS = [macroBranchNote, ideaBranchMerge];

/** `think.macro.anchor.note`: listed in the catalog after the anchor commands, where it has always been shown. */
export const ANCHOR_NOTE_COMMANDS = [anchorMacroNote];
