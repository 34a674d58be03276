/** The trace capability's commands (seed 001 "Trace tools (v0.2)"), in catalog order. */

import { traceHydrate, traceSequentialStep, traceStep, traceValidate } from "./trace.commands";

export const TRACE_COMMANDS = [traceStep, traceSequentialStep, traceHydrate, traceValidate];
