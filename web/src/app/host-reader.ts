/**
 * The board's reader inside the app: each read becomes a tool call the host runs on the app's behalf
 * (`app.callServerTool`), built from the `visualize` answer's reads. The app never fetches and never
 * sees a token. A result marked `isError` becomes a `HostReadError` with the server's words.
 */
import type { ReadSuggestion } from "./answer";
import { type ToolCall, toolCallFor } from "./tool-call";

/** The part of a tool result the app reads. */
export interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  content?: unknown;
}

export type CallTool = (call: ToolCall) => Promise<ToolResult>;

/** A read the server refused or the host could not run, in words a person can act on. */
export class HostReadError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly recoveryHint?: string,
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first text block of a result, for hosts that pass no structured content. */
function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const block = content.find((item) => isRecord(item) && item.type === "text" && typeof item.text === "string") as
    | { text: string }
    | undefined;
  return block?.text;
}

/** The error a failed result carries (`structuredContent.error`), else its text. */
export function resultError(result: ToolResult, what: string): HostReadError {
  const error = isRecord(result.structuredContent) && isRecord(result.structuredContent.error) ? result.structuredContent.error : undefined;
  if (error && typeof error.message === "string") {
    return new HostReadError(
      error.message,
      typeof error.code === "string" ? error.code : "ERROR",
      typeof error.recovery_hint === "string" ? error.recovery_hint : undefined,
    );
  }
  return new HostReadError(firstText(result.content) ?? `${what} failed, and the host gave no reason.`, "ERROR");
}

/** The payload of a successful result: its structured content, else its text read as JSON. */
export function resultPayload(result: ToolResult, what: string): unknown {
  if (result.isError) throw resultError(result, what);
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = firstText(result.content);
  if (text !== undefined) {
    try {
      return JSON.parse(text);
    } catch {
      // Falls through to the error below: text that is no answer.
    }
  }
  throw new HostReadError(`${what} gave no answer the board can read.`, "NO_STRUCTURED_CONTENT");
}

/** A reader of one view's commands: each runs as the tool call the answer names for it. */
export type ViewReader<C extends string> = <T>(command: C, args: Record<string, unknown>) => Promise<T>;

export function hostReader<C extends string>(callTool: CallTool, reads: Record<C, ReadSuggestion>): ViewReader<C> {
  return async <T>(command: C, args: Record<string, unknown>): Promise<T> => {
    const call = toolCallFor(reads[command], args);
    let result: ToolResult;
    try {
      result = await callTool(call);
    } catch (error) {
      throw new HostReadError(`The host could not run ${command}: ${error instanceof Error ? error.message : String(error)}`, "HOST_ERROR");
    }
    return resultPayload(result, command) as T;
  };
}

/** An error as a person reads it: the message, then what to do about it. */
export function errorInWords(error: unknown): { message: string; hint?: string } {
  if (error instanceof HostReadError)
    return error.recoveryHint ? { message: error.message, hint: error.recoveryHint } : { message: error.message };
  return { message: error instanceof Error ? error.message : String(error) };
}
