// SQL migration files are bundled as text (wrangler's default Text rule for **/*.sql).
declare module "*.sql" {
  const text: string;
  export default text;
}
