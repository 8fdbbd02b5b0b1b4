/**
 * The project-knowledge slash commands: `/<workflow>` for each `.agent-lsp/workflows/*.md` (its
 * steps go in as the user's message), `/skill:<name>` for each skill, and `/rules` (the rule
 * files loaded and their token cost). Workflows and skills are read from the session's project
 * each time the commands are listed or run, so a new file counts at once.
 */
import { userConfigDir } from "../../config/user-dirs.js";
import type { SessionEvents } from "../../editor/session-events.js";
import { discoverSkills, type Skill } from "../../knowledge/skills.js";
import { listWorkflows, readWorkflow, type Workflow } from "../../knowledge/workflows.js";
import { skillApproverFrom } from "../../tools/knowledge/skill-services.js";
import { skillInstructions } from "../../tools/knowledge/skill-run.js";
import type { ToolServices } from "../../tools/types.js";
import type { Agent } from "../agent.js";
import { knowledgeContextLines } from "./knowledge.js";
import type { SlashCommand, SlashCommands } from "../commands/slash-commands.js";
import { sendAsUser } from "../commands/send-as-user.js";

/** Adds /rules and the per-project workflow and skill commands. */
export function addKnowledgeCommands(commands: SlashCommands, agent: Agent, events: SessionEvents, services: ToolServices): void {
  commands.add({
    name: "rules",
    usage: "rules",
    summary: "The rule files (AGENTS.md, CLAUDE.md, .agent-lsp/rules) in the system prompt and their token cost.",
    run: async (_args, session) => knowledgeContextLines(session, agent.deps.config()).join("\n"),
  });
  commands.addSource((session) => [
    ...listWorkflows(session.root).map((w) => workflowCommand(w, agent, events)),
    ...discoverSkills(session.root, userConfigDir()).skills.map((s) => skillCommand(s, agent, events, services)),
  ]);
}

function workflowCommand(workflow: Workflow, agent: Agent, events: SessionEvents): SlashCommand {
  return {
    name: workflow.name,
    usage: `${workflow.name} [notes]`,
    summary: `${workflow.summary} (workflow)`,
    takesContext: true,
    async run(args, session, { context }) {
      const { file, steps } = readWorkflow(session.root, workflow.name);
      const notes = args.length ? `\n\nNotes: ${args.join(" ")}` : "";
      return sendAsUser(agent, events, session, `Follow the workflow "${workflow.name}" (${file}):\n\n${steps.trimEnd()}${notes}`, context);
    },
  };
}

/**
 * `/skill:<name> [task]`. A sub-turn skill is run through skill_run, so its tool limits hold and
 * its answer lands in the conversation; a `run: main` skill's instructions go in as the message.
 */
function skillCommand(skill: Skill, agent: Agent, events: SessionEvents, services: ToolServices): SlashCommand {
  return {
    name: `skill:${skill.name}`,
    usage: `skill:${skill.name} [task]`,
    summary: `${skill.description} (skill${skill.source === "project" ? ", project" : ""})`,
    takesContext: true,
    async run(args, session, { context }) {
      const task = args.join(" ");
      if (skill.run !== "main") return sendAsUser(agent, events, session, `Run the skill "${skill.name}" with skill_run${task ? ` for this task: ${task}` : ""}.`, context);
      const approver = skillApproverFrom(services);
      if (!approver && skill.source === "project") throw new Error(`The project skill "${skill.name}" needs your approval, and this server cannot ask for it.`);
      const refusal = await approver?.approve(skill, { sessionId: session.id, root: session.root }, new AbortController().signal);
      if (refusal) throw new Error(refusal);
      return sendAsUser(agent, events, session, `Follow the instructions of the skill "${skill.name}"${task ? ` for: ${task}` : ""}.\n\n${skillInstructions(skill)}`, context);
    },
  };
}
