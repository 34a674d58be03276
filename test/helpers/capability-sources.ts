// The capabilities' sources by repository path (test files aside), as `npm run docs` reads them from
// disk: the generated reference's "Defined in" and the command-homes test read them through Vite's raw
// imports (the workers pool has no file system).

export const CAPABILITY_SOURCES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(import.meta.glob<string>("../../src/capabilities/**/*.ts", { query: "?raw", import: "default", eager: true }))
    .filter(([path]) => !path.endsWith(".test.ts"))
    .map(([path, text]) => [path.replace(/^\.\.\/\.\.\//, ""), text]),
);
