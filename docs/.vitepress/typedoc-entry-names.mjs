// A TypeDoc plugin: each entry point's module is named the way users import it
// (`@tminus/http/fastify`), not by its path in the repository (`http/src/fastify`).
import { relative, resolve } from "node:path";
import { Converter, ReflectionKind } from "typedoc";
import { ENTRY_POINTS } from "./typedoc.mjs";

/** @param {import("typedoc").Application} app */
export function load(app) {
  const root = resolve(import.meta.dirname, "../..");
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const symbol = context.getSymbolFromReflection(reflection);
    const file = symbol?.declarations?.[0]?.getSourceFile().fileName;
    const name = file && ENTRY_POINTS[relative(root, file).split("\\").join("/")];
    if (name) reflection.name = name;
  });
}
