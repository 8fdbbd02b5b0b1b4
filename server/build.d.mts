// Types of what server/build.mjs exports (the unit tests import its plugins).
import type { Plugin } from "esbuild";
import type ts from "typescript";

export const lazyAcpSchemas: Plugin;
export function lazyZodGenSource(source: string, typescript: typeof ts): { code: string; count: number };
