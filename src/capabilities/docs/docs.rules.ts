/**
 * The size rule every writer of entries shares: content and meta are bounded in bytes (schemas bound
 * characters; storage is bounded in bytes). Writing a note is vcs's (`vcs/note-write.ts`): it moves the
 * branch head along; where a call writes is the place module's (`src/place/scope.ts`).
 */
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { MAX_CONTENT_BYTES, MAX_META_BYTES } from "../../shared/limits";

export function checkContentSize(content: string, meta: Record<string, unknown> | undefined): void {
  const bytes = utf8Bytes(content);
  if (bytes > MAX_CONTENT_BYTES) {
    fail("PAYLOAD_TOO_LARGE", `content is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES}.`, "Split the content into several entries.", {
      bytes,
      max_bytes: MAX_CONTENT_BYTES,
    });
  }
  if (meta !== undefined) {
    const metaBytes = utf8Bytes(JSON.stringify(meta));
    if (metaBytes > MAX_META_BYTES) {
      fail(
        "PAYLOAD_TOO_LARGE",
        `meta is ${metaBytes} bytes; the limit is ${MAX_META_BYTES}.`,
        "Keep meta small; put long text in content.",
        {
          bytes: metaBytes,
          max_bytes: MAX_META_BYTES,
        },
      );
    }
  }
}
