// The MCP App's build (docs/app.md): the same views as the viewer, bundled with the App SDK into one
// HTML document with its script and styles inlined (web/dist-app/app.html), which the Worker serves as
// the `ui://branchmind/app` resource. Nothing is fetched from elsewhere: hosts block every outside load.
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/** The one file the build leaves: what the Worker bundles as text (src/worker/app-resource.ts). */
export const APP_HTML = "app.html";

/** `</script` and `</style` inside inlined code would end the element early; `<\/` means the same to JS and CSS. */
function inlineSafe(code: string): string {
  return code.replace(/<\/(script|style)/gi, "<\\/$1");
}

/** Replaces the build's script and stylesheet files with one HTML document that holds both. */
function singleDocument(): Plugin {
  return {
    name: "branchmind-single-document",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      let script = "";
      let styles = "";
      for (const [name, output] of Object.entries(bundle)) {
        if (output.type === "chunk") script += output.code;
        else if (name.endsWith(".css")) styles += String(output.source);
        else continue;
        delete bundle[name];
      }
      const html = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8" />',
        '<meta name="viewport" content="width=device-width, initial-scale=1" />',
        '<meta name="referrer" content="no-referrer" />',
        "<title>BranchMind</title>",
        `<style>${inlineSafe(styles)}</style>`,
        "</head>",
        "<body>",
        '<div id="app"></div>',
        `<script>${inlineSafe(script)}</script>`,
        "</body>",
        "</html>",
        "",
      ].join("\n");
      this.emitFile({ type: "asset", fileName: APP_HTML, source: html });
    },
  };
}

export default defineConfig({
  root,
  base: "./",
  logLevel: "warn",
  plugins: [singleDocument()],
  build: {
    outDir: "dist-app",
    // The one file is replaced in place: emptying the directory first would take app.html away from a
    // running `wrangler dev` (the Worker imports it) for the length of the build.
    emptyOutDir: false,
    sourcemap: false,
    // One classic script: an inline module would work too, but a plain IIFE runs in every host's frame.
    lib: { entry: "src/app/main.ts", formats: ["iife"], name: "BranchMindApp", fileName: () => "app.js", cssFileName: "app" },
  },
});
