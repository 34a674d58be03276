/** The knowledge capability's commands (knowledge cards on `kb/main`), in catalog order. */

import { knowledgeKeySuggest, knowledgeNotePromote, knowledgeUpsert } from "./knowledge.commands";
import { knowledgeLint, knowledgeQuery, knowledgeRecall } from "./knowledge-reads.commands";

export const KNOWLEDGE_COMMANDS = [
  knowledgeUpsert,
  knowledgeRecall,
  knowledgeQuery,
  knowledgeLint,
  knowledgeKeySuggest,
  knowledgeNotePromote,
];
