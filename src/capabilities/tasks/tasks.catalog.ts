/** The tasks capability's commands, in catalog order. */

import { tasksDependencyAdd, tasksDependencyRemove } from "./dependencies.commands";
import { tasksDiagnostics, tasksLint } from "./diagnostics.commands";
import { tasksEvidenceCapture } from "./evidence.commands";
import { tasksExecuteNext } from "./execute-next.commands";
import { tasksStepLeaseClaim, tasksStepLeaseGet, tasksStepLeaseRelease, tasksStepLeaseRenew } from "./leases.commands";
import { tasksMacroCloseStep, tasksMacroFinish, tasksMacroStart, tasksTemplatesList } from "./macros.commands";
import { tasksClaimRelease, tasksClaimRenew, tasksReady, tasksTake } from "./ready.commands";
import { tasksResumeSuper } from "./resume.commands";
import { tasksSnapshot } from "./snapshot.commands";
import {
  tasksBlock,
  tasksCloseStep,
  tasksDecompose,
  tasksDefine,
  tasksDone,
  tasksNote,
  tasksProgress,
  tasksVerify,
} from "./steps.commands";
import { tasksComplete, tasksCreate, tasksDelete, tasksEdit, tasksFocusClear, tasksFocusGet, tasksFocusSet } from "./tasks.commands";
import { tasksContext, tasksDelta, tasksRadar } from "./views.commands";

export const TASK_COMMANDS = [
  tasksCreate,
  tasksEdit,
  tasksDecompose,
  tasksDefine,
  tasksNote,
  tasksVerify,
  tasksDone,
  tasksCloseStep,
  tasksProgress,
  tasksBlock,
  tasksComplete,
  tasksDelete,
  tasksDependencyAdd,
  tasksDependencyRemove,
  tasksEvidenceCapture,
  tasksStepLeaseClaim,
  tasksStepLeaseRenew,
  tasksStepLeaseRelease,
  tasksStepLeaseGet,
  tasksFocusSet,
  tasksFocusGet,
  tasksFocusClear,
  tasksReady,
  tasksTake,
  tasksClaimRenew,
  tasksClaimRelease,
  tasksRadar,
  tasksContext,
  tasksDelta,
  tasksExecuteNext,
  tasksDiagnostics,
  tasksLint,
  tasksMacroStart,
  tasksMacroCloseStep,
  tasksMacroFinish,
  tasksTemplatesList,
  tasksResumeSuper,
  tasksSnapshot,
];
