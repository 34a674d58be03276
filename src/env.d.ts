// Bindings and variables of the Worker (see wrangler.toml).
import type { DirectoryObject } from "./directory/directory-object";
import type { WorkspaceObject } from "./workspace/workspace-object";

declare global {
  interface Env {
    WORKSPACES: DurableObjectNamespace<WorkspaceObject>;
    DIRECTORY: DurableObjectNamespace<DirectoryObject>;
    /** "dev" only when the dev script says so on its command line; anything else means tokens. */
    AUTH_MODE?: string;
    /** HMAC secret for bearer tokens; a deployment without it refuses every call. */
    AUTH_SECRET?: string;
    /** Key id stamped into tokens and required on verification (rotate by changing both). */
    AUTH_KEY_ID?: string;
    /** Secret redaction of stored text (issue 11): "off" stores text as sent; unset or anything else redacts. */
    REDACTION?: string;
  }
}

declare global {
  namespace Cloudflare {
    interface Env extends globalThis.Env {}
    interface GlobalProps {
      mainModule: typeof import("./worker/index");
      durableNamespaces: "WorkspaceObject" | "DirectoryObject";
    }
  }
}
