/**
 * The user's own agent-lsp folders (config, state, data), as settings name them. They live in
 * util/user-dirs.ts, a leaf, because the state folder (util/state-folder.ts) falls back to the
 * user's state folder for a checkout it cannot write.
 */
export { homeOf, userConfigDir, userDataDir, userStateDir } from "../util/user-dirs.js";
