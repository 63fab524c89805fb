// schema.sql is imported as text: natively by Bun (`with { type: "text" }`), by a tiny plugin
// under vitest (test/vitest.config.ts). That is what embeds it in the compiled binary.
declare module "*.sql" {
  const text: string;
  export default text;
}
