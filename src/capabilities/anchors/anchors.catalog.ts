/** The anchors capability's commands (the meaning map `a:<slug>`), in catalog order. */

import { anchorBootstrap, anchorMerge, anchorRename } from "./anchor-writes.commands";
import { anchorExport, anchorLint, anchorList, anchorResolve, anchorSnapshotCommand } from "./anchors.commands";

export const ANCHOR_COMMANDS = [
  anchorList,
  anchorSnapshotCommand,
  anchorExport,
  anchorRename,
  anchorMerge,
  anchorBootstrap,
  anchorLint,
  anchorResolve,
];
