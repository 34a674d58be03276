/** The jobs capability's commands, in catalog order: create and read, work on a job, manage the queue. */
import { jobsClaim, jobsComplete, jobsFail, jobsReport } from "./claims.commands";
import { jobsCreate, jobsList, jobsOpen, jobsRadar } from "./jobs.commands";
import { jobsCancel, jobsRequeue } from "./queue.commands";

export { type JobRefView, openJobRef, parseJobRef } from "./job-refs";

export const JOB_COMMANDS = [
  jobsCreate,
  jobsList,
  jobsRadar,
  jobsOpen,
  jobsClaim,
  jobsReport,
  jobsComplete,
  jobsFail,
  jobsCancel,
  jobsRequeue,
];
