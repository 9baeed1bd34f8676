// How einvoice imports an ES module by URL: a profile file written as JavaScript (einvoice.config.mjs). On Node 20,
// code that V8 compiled from einvoice's code cache (src/code-cache.ts) has no import() of its own: the launcher,
// which Node compiled as usual, hands over its own.

/** Imports the module at `url`, as import() does. */
export type ModuleImporter = (url: string) => Promise<unknown>;

let importer: ModuleImporter = (url) => import(url);

/** Imports the ES module at `url`. */
export function importEsModule(url: string): Promise<unknown> {
  return importer(url);
}

/** Makes `importEsModule` use `importModule`. */
export function useModuleImporter(importModule: ModuleImporter): void {
  importer = importModule;
}
