/**
 * MCP resources (docs/resources.md): the refs the open command accepts, under
 * `branchmind://<workspace>/<ref>` (the scheme, the command and what is worth attaching are
 * `catalog/resource-refs.ts`). A read runs that command for the caller exactly as a tool call would
 * (roles, the URL's lock, lanes, the portal budget), so a resource shows nothing it would not. The
 * list is paged by workspace: on a locked URL the locked one, on `/mcp` each workspace the token
 * grants, one per page, in name order. The MCP App's document (`ui://branchmind/app`, app-resource.ts)
 * is listed first on the first page and named among the templates. The server is stateless: no
 * subscriptions and no change notifications.
 */
import {
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/server";
import { findCommand } from "../catalog/catalog";
import { PORTAL_PROFILE } from "../catalog/portals";
import { ATTACHABLE_READS, OPEN_COMMAND, parseResourceUri, REF_TEMPLATES, RESOURCE_MIME_TYPE, resourceUri } from "../catalog/resource-refs";
import { wellKnown } from "../catalog/well-known";
import type { Command } from "../commands/registry";
import type { AppError } from "../shared/errors";
import { renderTextBlock } from "../shared/json";
import type { Result } from "../shared/result";
import { appResource, appTemplate, isAppResource, readAppResource } from "./app-resource";
import { type CallSession, callCommand } from "./call-command";

/** Longest cursor accepted: a workspace name (the one the next page starts after). */
const MAX_CURSOR_CHARS = 256;

function commandNamed(name: string): Command {
  const command = findCommand(name);
  if (command === undefined) throw new Error(`resources name unknown command ${name}`);
  return command;
}

/** -32602, the protocol's answer for a resource that is not there (its data names the URI, when there is one). */
function invalidParams(message: string, error?: AppError, uri?: string): ProtocolError {
  const data = { ...(uri === undefined ? {} : { uri }), ...(error === undefined ? {} : { error }) };
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, Object.keys(data).length > 0 ? data : undefined);
}

export function resourceTemplates(): ListResourceTemplatesResult {
  return {
    resourceTemplates: [
      ...REF_TEMPLATES.map((template) => ({
        uriTemplate: template.uriTemplate,
        name: template.name,
        description: template.description,
        mimeType: RESOURCE_MIME_TYPE,
      })),
      appTemplate(),
    ],
  };
}

/** The resources worth attaching from one workspace; a read that fails (no such doc yet, a role) offers nothing. */
async function attachableIn(session: CallSession, workspace: string): Promise<Resource[]> {
  const answers = await Promise.all(
    ATTACHABLE_READS.map(async (read) => {
      const result = await callCommand(session, commandNamed(read.command), { ...read.args, workspace });
      return result.ok ? read.refsOf(result.value) : [];
    }),
  );
  const seen = new Set<string>();
  return answers.flat().flatMap((item) => {
    if (seen.has(item.ref)) return [];
    seen.add(item.ref);
    return [
      {
        uri: resourceUri(workspace, item.ref),
        name: item.ref,
        ...(item.title === undefined ? {} : { title: item.title }),
        description: `${item.why} in ${workspace}`,
        mimeType: RESOURCE_MIME_TYPE,
      },
    ];
  });
}

/** One page: the locked workspace, or the next workspace the token grants after `cursor`. */
export async function listResources(session: CallSession, cursor: string | undefined): Promise<ListResourcesResult> {
  if (cursor !== undefined && (cursor === "" || cursor.length > MAX_CURSOR_CHARS)) throw invalidParams("Invalid cursor.");
  if (session.lock !== undefined) {
    if (cursor !== undefined) throw invalidParams("Invalid cursor: a locked connection lists one page.");
    return { resources: [appResource(), ...(await attachableIn(session, session.lock))] };
  }
  const page = await callCommand(session, wellKnown("workspaceList"), { limit: 1, ...(cursor === undefined ? {} : { cursor }) });
  if (!page.ok) throw invalidParams(page.error.message, page.error);
  const workspaces = (page.value.workspaces as { name: string }[] | undefined) ?? [];
  const pagination = page.value.pagination as { next_cursor?: string } | undefined;
  const attachable = workspaces[0] === undefined ? [] : await attachableIn(session, workspaces[0].name);
  const resources = cursor === undefined ? [appResource(), ...attachable] : attachable;
  return { resources, ...(pagination?.next_cursor === undefined ? {} : { nextCursor: pagination.next_cursor }) };
}

/** The open command on the URI's ref in the URI's workspace, as the caller, under the portal budget. */
export async function readResource(session: CallSession, uri: string): Promise<ReadResourceResult> {
  if (isAppResource(uri)) return readAppResource();
  const parsed = parseResourceUri(uri);
  if (parsed === undefined) {
    const shown = uri.slice(0, MAX_CURSOR_CHARS);
    throw invalidParams(
      `Resource not found: ${shown} is not a branchmind://<workspace>/<ref> URI (nor the app, ui://branchmind/app).`,
      undefined,
      shown,
    );
  }
  const result: Result<Record<string, unknown>> = await callCommand(session, commandNamed(OPEN_COMMAND), {
    workspace: parsed.workspace,
    id: parsed.ref,
    budget_profile: PORTAL_PROFILE,
  });
  if (!result.ok) throw invalidParams(`Resource not readable: ${result.error.message}`, result.error, uri);
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: renderTextBlock(result.value) }] };
}
