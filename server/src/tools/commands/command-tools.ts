/**
 * The command tools, for the server to register together. They need a ProcessManager in
 * `services.processes` (see exec/processes.ts) and its shutdown hooks (exec/shutdown.ts).
 */
import { backgroundProcessTool } from "./background-process.js";
import { executeCommandTool } from "./execute-command.js";
import { killCommandTool } from "./kill-command.js";
import type { Capability } from "../types.js";

/** execute_command, background_process and kill_command. */
export const commandTools: Capability[] = [executeCommandTool, backgroundProcessTool, killCommandTool];
