/** The tables about the editor, logs and the safety policy. */
import { z } from "zod";
import { key, optional, table } from "./schema-keys.js";
import { FLOOR_NAMES } from "./schema-enums.js";

/** `[editor]`. */
export const editorTable = () => table({
    chat_file: key(
      z.boolean(),
      false,
      "boolean",
      "Use the chat file `.agent-lsp/chat.md` (answers streamed into it, approvals and questions as code actions there) even when the editor declares the agent protocol. Editors that do not declare it (Helix, stock eglot) always get it (docs/helix.md).",
    ),
    approvals: key(
      z.enum(["auto", "chat_file", "message"]),
      "auto",
      "string",
      "Where an editor without agent-lsp's own review (no `agent/requestPermission`) is asked for approvals and questions while the chat file is on: `chat_file` writes a block into `.agent-lsp/chat.md` with the diff or the command, answered by a code action on it; `message` asks with `window/showMessageRequest` (a one-line summary, no diff; the chat file still when the editor cannot answer it); `auto` chooses the chat file, since no such editor can show a diff in a message (docs/any-client.md).",
    ),
});

/** `[log]`. */
export const logTable = () => table({
    level: key(z.enum(["error", "warn", "info", "debug"]), "info", "string", "`error`, `warn`, `info` or `debug`. Logs go to `.agent-lsp/logs/agent-lsp.log` and stderr (the terminal commands `run`, `tool`, `mcp list` and `doctor` put only errors on stderr; `--verbose` on `run`, `tool` and `mcp list` shows the rest), with keys redacted."),
});

/** `[policy]`. */
export const policyTable = () => table({
    lift_floors: key(
      z.array(z.enum(FLOOR_NAMES)),
      [],
      "array of strings",
      "Floors to lift, from `rm_root` (rm -r of `/`, the home folder or the project), `disk_format` (mkfs, wipefs, dd/redirects onto a disk device), `fork_bomb`, `force_push_protected` (`git push --force` or `+ref` to a protected branch). Every floor holds in every mode, `full_access` included, until named here.",
    ),
    protected_branches: key(
      z.array(z.string().min(1)),
      ["main", "master"],
      "array of strings",
      "Branches a forced push may not reach; `*` matches any characters (`\"release/*\"`). Replaces the default list, so repeat `main` and `master` if you add to it.",
    ),
    classifier_model: key(z.string(), "", "string", "The model of the `auto` mode safety check, as `NAME/model-id` (e.g. a cheaper one); empty uses the session's own model."),
    classifier_timeout_s: key(
      z.number().positive(),
      30,
      "number",
      "Seconds the safety check may take; after that (or on any error, or an unreadable answer) the action is asked as in `ask` mode.",
    ),
    sensitive_paths: key(
      z.array(z.string().min(1)),
      [],
      "array of strings",
      "More sensitive locations (absolute, or `~/...`), added to the built-in list of docs/safety.md: always asked, never remembered. A project file can add to the list, never shorten it.",
    ),
});
