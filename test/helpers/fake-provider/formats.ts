/**
 * Every wire format the fake provider speaks. The server picks the first whose `matches` accepts a
 * request's method and path; each format lives in its own file and adds one import line here.
 */
import * as anthropic from "./anthropic.js";
import * as gemini from "./gemini.js";
import * as openaiChat from "./openai-chat.js";
import * as openaiResponses from "./openai-responses.js";
import type { WireFormat } from "./types.js";

/** The formats the fake provider serves, tried in order. */
export const formats: WireFormat[] = [anthropic.format, openaiResponses.format, openaiChat.format, gemini.format];
