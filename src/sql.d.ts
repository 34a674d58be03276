// Non-code modules bundled as text: SQL migrations (wrangler's default Text rule for **/*.sql) and,
// in tests, Markdown and TOML read with Vite's ?raw suffix.
declare module "*.sql" {
  const text: string;
  export default text;
}

declare module "*.md?raw" {
  const text: string;
  export default text;
}

declare module "*.toml?raw" {
  const text: string;
  export default text;
}

// The MCP App's document, built by `npm run build:web` (web/app.vite.config.ts), bundled as text
// (wrangler's default Text rule for **/*.html).
declare module "*.html" {
  const text: string;
  export default text;
}
