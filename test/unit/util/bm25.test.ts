/** BM25 with weighted fields and prefix matching. */
import { describe, expect, it } from "vitest";
import { Bm25Index, tokenize } from "../../../server/src/util/bm25.js";

const docs = [
  { id: "list_issues", fields: { name: "list_issues", description: "List the issues of a repository" } },
  { id: "create_issue", fields: { name: "create_issue", description: "Open a new issue" } },
  { id: "search_code", fields: { name: "search_code", description: "Search code across repositories; issues are not searched" } },
  { id: "get_weather", fields: { name: "getWeather", description: "Weather forecast for a city" } },
];
const index = new Bm25Index(docs, { weights: { name: 3, description: 1 } });

describe("BM25", () => {
  it("splits names and camelCase into words, without stopwords", () => {
    expect(tokenize("getWeather for list_issues")).toEqual(["get", "weather", "list", "issues"]);
  });

  it("ranks a word in the name above the same word in a description", () => {
    expect(index.search("issues", 3).map((h) => h.id)).toEqual(["list_issues", "search_code"]);
  });

  it("finds words by their beginning, below exact matches", () => {
    const hits = index.search("iss", 5).map((h) => h.id);
    expect(hits).toContain("create_issue");
    expect(hits).toContain("list_issues");
    expect(index.search("issue", 5)[0]!.id).toBe("create_issue");
  });

  it("honours the limit and the filter, and finds nothing for unknown words", () => {
    expect(index.search("issue code weather", 2)).toHaveLength(2);
    expect(index.search("issue", 5, (id) => id !== "create_issue").map((h) => h.id)).not.toContain("create_issue");
    expect(index.search("zzz", 5)).toEqual([]);
  });
});
