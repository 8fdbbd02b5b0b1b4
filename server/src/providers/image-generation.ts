/**
 * The image model behind generate_image (`[images] model`): OpenAI's Images API (`gpt-image-1`,
 * `dall-e-3`) or a Gemini image model, with the provider's own settings and key. The SDK loads on
 * the first image.
 */
import type { Config } from "../config/schema.js";
import { lazyOpenAIClient } from "./openai-client.js";
import { parseModelRef, providerSettings } from "./registry.js";

/** One generated image. */
export interface GeneratedImage {
  bytes: Buffer;
  mediaType: string;
  /** What the model said beside the image (Gemini), or the prompt as the API revised it. */
  note?: string;
}

/** Makes images from prompts. */
export interface ImageGenerator {
  /** `provider/model-id`, as configured. */
  model: string;
  generate(prompt: string, signal: AbortSignal): Promise<GeneratedImage>;
}

/** The generator for `[images] model`; throws with what to set when it cannot be made. */
export function createImageGenerator(config: Config): ImageGenerator {
  const selection = config.images.model;
  const ref = parseModelRef(selection, config);
  const settings = providerSettings(ref.provider, config);
  if (!ref.model) throw new Error(`[images] model = "${selection}" names no model id; write it as "${ref.provider}/MODEL-ID".`);
  if (settings.missingKey) throw new Error(settings.missingKey);
  const model = ref.model;
  if (settings.type === "gemini") {
    return {
      model: selection,
      async generate(prompt, signal) {
        const genai = await import("@google/genai");
        const { createClient } = await import("./gemini.js");
        const client = createClient(genai, settings);
        const res = await client.models.generateContent({ model, contents: prompt, config: { responseModalities: ["TEXT", "IMAGE"], abortSignal: signal } });
        const parts = res.candidates?.[0]?.content?.parts ?? [];
        const image = parts.find((p) => p.inlineData?.data);
        const text = parts.flatMap((p) => (p.text ? [p.text] : [])).join(" ").trim();
        if (!image?.inlineData?.data) throw new Error(`${selection} returned no image${text ? `: ${text}` : ""}`);
        return { bytes: Buffer.from(image.inlineData.data, "base64"), mediaType: image.inlineData.mimeType ?? "image/png", ...(text ? { note: text } : {}) };
      },
    };
  }
  if (settings.type !== "openai" && settings.type !== "openai-compatible") {
    throw new Error(`[images] model = "${selection}": ${settings.type} has no image API agent-lsp speaks; use an OpenAI or Gemini image model.`);
  }
  const client = lazyOpenAIClient(settings, settings.apiKey);
  return {
    model: selection,
    async generate(prompt, signal) {
      // DALL-E answers with a URL unless asked for the bytes; gpt-image models always send bytes (and refuse the option).
      const format = /^dall-e/i.test(model) ? { response_format: "b64_json" as const } : {};
      const res = await (await client()).images.generate({ model, prompt, n: 1, ...format }, { signal });
      const first = res.data?.[0];
      if (!first?.b64_json) throw new Error(`${selection} returned no image data`);
      return { bytes: Buffer.from(first.b64_json, "base64"), mediaType: "image/png", ...(first.revised_prompt ? { note: `Revised prompt: ${first.revised_prompt}` } : {}) };
    },
  };
}
