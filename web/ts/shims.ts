// Globals some of the kit's dependencies expect of Node (build.mjs injects
// this file: esbuild replaces each free use of Buffer with this import).
export { Buffer } from "buffer";
