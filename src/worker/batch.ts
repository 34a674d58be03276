/**
 * JSON-RPC batches (protocol revisions before 2026-07-28 allow them) within bounds: a 1 KB body of
 * `tools/list` requests could otherwise ask for tens of megabytes in one answer, and an isolate has
 * about 128 MB. A batch of more than MAX_BATCH_ITEMS messages is refused whole before anything runs; the
 * answer of a batch that runs is passed on message by message while their total stays within
 * MAX_BATCH_ANSWER_BYTES, and a message that would pass it is replaced by a JSON-RPC error for its id
 * (earlier messages, and so the results of writes that ran, are kept). Works on the JSON and the SSE
 * forms of the answer. Knows nothing of commands.
 */

/** Messages in one batch: clients batch a few (initialize and its notification, a few calls). */
export const MAX_BATCH_ITEMS = 10;
/**
 * Bytes of one batch's answer: room for the largest legitimate single answer (`tools/list` of the full
 * toolset, about 323 KB since its schemas were made lean) and then some.
 */
export const MAX_BATCH_ANSWER_BYTES = 2 * 1024 * 1024;
/** JSON-RPC "server error" range: the request was valid, its answer too large to send. */
const ANSWER_TOO_LARGE = -32000;

/** The refusal of a batch with too many messages (JSON-RPC invalid request), or undefined. */
export function oversizedBatch(message: object | undefined): Response | undefined {
  if (!Array.isArray(message) || message.length <= MAX_BATCH_ITEMS) return undefined;
  return Response.json(
    {
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: `A batch holds at most ${MAX_BATCH_ITEMS} messages; this one holds ${message.length}. Nothing ran.`,
        data: { max_items: MAX_BATCH_ITEMS, items: message.length },
      },
      id: null,
    },
    { status: 400 },
  );
}

function tooLargeFor(id: unknown, bytes: number): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id: id ?? null,
    error: {
      code: ANSWER_TOO_LARGE,
      message: `This answer would take the batch's answer past ${MAX_BATCH_ANSWER_BYTES} bytes; it was not sent. Send it on its own.`,
      data: { max_bytes: MAX_BATCH_ANSWER_BYTES, answer_bytes: bytes },
    },
  };
}

/** Tracks the batch's total and replaces a message that would pass the bound. */
function bounder(): (json: string) => string {
  const encoder = new TextEncoder();
  let total = 0;
  return (json) => {
    const bytes = encoder.encode(json).byteLength;
    if (total + bytes <= MAX_BATCH_ANSWER_BYTES) {
      total += bytes;
      return json;
    }
    let id: unknown = null;
    try {
      id = (JSON.parse(json) as { id?: unknown }).id;
    } catch {
      // Not JSON: the replacement goes without an id.
    }
    const replacement = JSON.stringify(tooLargeFor(id, bytes));
    total += encoder.encode(replacement).byteLength;
    return replacement;
  };
}

/** One SSE event with each `data:` message bounded (other lines as they were). */
function boundEvent(event: string, bound: (json: string) => string): string {
  const lines = event.split("\n");
  const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  if (data.length === 0) return event;
  const others = lines.filter((line) => !line.startsWith("data:"));
  return [...others, `data: ${bound(data.join("\n"))}`].join("\n");
}

/** The response's status and headers, without a length (the bounded body may differ in size). */
function initOf(response: Response): ResponseInit {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return { status: response.status, statusText: response.statusText, headers };
}

/** The answer of a batch, bounded (see the module's header). */
export async function boundedBatchAnswer(response: Response): Promise<Response> {
  if (response.body === null) return response;
  const type = response.headers.get("content-type") ?? "";
  const bound = bounder();
  if (type.includes("application/json")) {
    const text = await response.text();
    let messages: unknown;
    try {
      messages = JSON.parse(text);
    } catch {
      return new Response(text, initOf(response));
    }
    if (!Array.isArray(messages)) return new Response(text, initOf(response));
    return new Response(`[${messages.map((message) => bound(JSON.stringify(message))).join(",")}]`, initOf(response));
  }
  if (!type.includes("text/event-stream")) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf("\n\n");
      while (end !== -1) {
        controller.enqueue(encoder.encode(`${boundEvent(pending.slice(0, end), bound)}\n\n`));
        pending = pending.slice(end + 2);
        end = pending.indexOf("\n\n");
      }
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending.length > 0) controller.enqueue(encoder.encode(boundEvent(pending, bound)));
    },
  });
  return new Response(response.body.pipeThrough(transform), initOf(response));
}
