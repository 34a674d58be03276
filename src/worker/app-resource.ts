/**
 * The MCP App (docs/app.md): one `ui://` resource, a single HTML document built from the viewer's code
 * in web/ (web/app.vite.config.ts inlines its script and styles), bundled into the Worker as text. The
 * tools that open it (`visualize`) carry its URI in `_meta.ui.resourceUri`; hosts that render MCP Apps
 * read it, mount it in a sandboxed frame and let it call the connection's listed tools through them.
 * It declares no outside domain at all, so hosts block every outside load from the frame.
 */
import type { ListResourceTemplatesResult, ReadResourceResult, Resource } from "@modelcontextprotocol/server";
import appHtml from "../../web/dist-app/app.html";

/** One resource serves every view: a tool names this URI whatever its arguments. */
export const APP_RESOURCE_URI = "ui://branchmind/app";
/** The MCP Apps extension's MIME type for an app's HTML (`RESOURCE_MIME_TYPE` of @modelcontextprotocol/ext-apps). */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/**
 * The most the document may weigh, in bytes of UTF-8. Every host fetches it whole when it renders the
 * app, and the Worker carries it in its bundle. Today's task board is about a quarter of it; the
 * graph view's drawing library (about 440 KB) has to fit beside the rest. docs/app.md has the numbers.
 */
export const MAX_APP_BYTES = 900_000;

/**
 * What the resource declares to hosts (`_meta.ui`): no domain for fetches, scripts, styles, images or
 * frames (everything is inline), and a border, since the board is a panel of its own in the chat.
 */
const APP_UI_META = { csp: { connectDomains: [], resourceDomains: [], frameDomains: [] }, prefersBorder: true };

const APP_DESCRIPTION = "The BranchMind app: the task board (plans, tasks, steps, leases, missing proof), drawn in the chat.";

/** The tool's `_meta` that tells a host which resource renders its results. */
export const APP_TOOL_META = { ui: { resourceUri: APP_RESOURCE_URI } };

export function appResource(): Resource {
  return {
    uri: APP_RESOURCE_URI,
    name: "app",
    title: "BranchMind app",
    description: APP_DESCRIPTION,
    mimeType: APP_MIME_TYPE,
    _meta: { ui: APP_UI_META },
  };
}

/** The app as a template too (no variables: one URI serves every view), so clients that only read templates find it. */
export function appTemplate(): ListResourceTemplatesResult["resourceTemplates"][number] {
  return { uriTemplate: APP_RESOURCE_URI, name: "app", title: "BranchMind app", description: APP_DESCRIPTION, mimeType: APP_MIME_TYPE };
}

export function isAppResource(uri: string): boolean {
  return uri === APP_RESOURCE_URI;
}

export function readAppResource(): ReadResourceResult {
  return { contents: [{ uri: APP_RESOURCE_URI, mimeType: APP_MIME_TYPE, text: appHtml, _meta: { ui: APP_UI_META } }] };
}
