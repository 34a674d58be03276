/**
 * The MCP App's entry (docs/app.md): connects to the host over postMessage, shows a waiting line
 * until the host hands over the `visualize` result, then draws the task board, reading only through
 * the host's tool calls. It follows the host's theme. It never fetches and never holds a token.
 */
import "../base.css";
import "./app.css";
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import { noticeView, showToolResult, waitingView } from "./page";
import { applyTheme } from "./theme";
import type { ToolCall } from "./tool-call";

const root = document.getElementById("app") as HTMLElement;
root.replaceChildren(waitingView());
applyTheme(undefined);

const app = new App({ name: "branchmind", version: "0.1.0" }, {}, { autoResize: true });
const callTool = (call: ToolCall) => app.callServerTool(call);

// Handlers first: a result the host sends right after the handshake is not missed.
app.addEventListener("toolresult", (result) => void showToolResult(root, result, callTool));
app.addEventListener("toolcancelled", () => root.replaceChildren(noticeView("The host cancelled the call: there is nothing to show.")));
app.addEventListener("hostcontextchanged", () => applyTheme(app.getHostContext()?.theme));

app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => applyTheme(app.getHostContext()?.theme),
  (error: unknown) =>
    root.replaceChildren(noticeView(`Could not reach the host: ${error instanceof Error ? error.message : String(error)}`)),
);
