/** The project-knowledge tools: git, skills, workflows and model routing (docs/skills.md, docs/tools.md). */
import { gitReadTool } from "../git/git-read.js";
import { gitWriteTool } from "../git/git-write.js";
import { loadWorkflowTool } from "./load-workflow.js";
import { modelRoutingConfigTool } from "./model-routing-config.js";
import { skillListTool } from "./skill-list.js";
import { skillRunTool } from "./skill-run.js";
import { skillViewTool } from "./skill-view.js";
import type { Capability } from "../types.js";

/** Registered with the built-ins. */
export const knowledgeTools: Capability[] = [gitReadTool, gitWriteTool, skillListTool, skillViewTool, skillRunTool, loadWorkflowTool, modelRoutingConfigTool];
