/** What capture.ts (preact) and render_all.tsx (real React) share: which files and exports. */

/** A JSON value; elements, functions, dates, sets and maps are tagged objects (see `encode`). */
export type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

/** Whether an export of a source file counts as a component (shared rule with render_all). */
export function isComponentExport(file: string, name: string, value: unknown): boolean {
  const component = typeof value === "function" ||
    (typeof value === "object" && value !== null && "$$typeof" in value);
  if (!component) return false;
  return file.startsWith("islands/") ? name === "default" : /^[A-Z]/.test(name);
}

/** The .tsx files of `islands/` and `components/` (relative to `root`), sorted. */
export async function sourceFiles(root: URL): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (entry.name.endsWith(".tsx")) files.push(path);
    }
  };
  await walk("islands/");
  await walk("components/");
  return files.sort();
}
