/**
 * Pages for the HTML reduction's equivalence test: the bench's article, the test site's pages, and
 * hand-made ones with code blocks, tables, nested lists, scripts and styles, and no article at all.
 */
import { articleHtml, docsHtml } from "../../helpers/web-server.js";

const prose = (n: number, what: string): string =>
  Array.from({ length: n }, (_, i) => `<p>${what} paragraph ${i + 1} goes on about the subject at length, with <em>emphasis</em>, a <a href="/ref/${i}">reference</a> and <code>inline()</code> code, so that it reads like real prose that a reader of this page would take the time to read.</p>`).join("\n");

const codeBlocks = `<!doctype html><html><head><title>Build guide | Tools</title></head><body>
<header><a href="/">Tools</a> <a href="/docs">Docs</a></header>
<main><article><h1>Building from source</h1>
${prose(4, "Setup")}
<pre><code class="language-sh">git clone https://example.test/tool.git
cd tool &amp;&amp; make -j4</code></pre>
<p>Then run the tests, which take a while; the output looks like this and is long enough to count as prose for the reader.</p>
<pre class="lang-python"><code>def main():
    print("\`\`\`fenced\`\`\`")
    return 0
</code></pre>
<pre>plain   preformatted
   text</pre>
${prose(3, "Closing")}
</article></main></body></html>`;

const tables = `<!doctype html><html><head><title>Release table</title></head><body>
<article><h1>Releases</h1>
${prose(3, "Intro")}
<table><thead><tr><th>Version</th><th>Date</th><th>Notes</th></tr></thead>
<tbody><tr><td>1.0</td><td>2024-01-02</td><td>First | stable</td></tr>
<tr><td>1.1</td><td>2024-03-04</td><td><a href="notes/1.1">notes</a> and <strong>fixes</strong></td></tr>
<tr><td>2.0</td><td colspan="2">Breaking</td></tr></tbody></table>
${prose(3, "After the table")}
</article></body></html>`;

const nestedLists = `<!doctype html><html><head><title>Lists</title></head><body>
<div id="content" class="post"><h1>Nested lists</h1>
${prose(3, "Before")}
<ul><li>One<ul><li>One.a</li><li>One.b<ol><li>deep 1</li><li>deep 2</li></ol></li></ul></li>
<li>Two with <a href="https://other.test/x">a link</a></li><li><p>Three in a paragraph</p><p>and a second</p></li></ul>
<ol><li>First</li><li>Second</li></ol>
<blockquote><p>A quoted paragraph.</p><p>And another.</p></blockquote>
<dl><dt>Term</dt><dd>Definition</dd></dl>
${prose(3, "After")}
</div></body></html>`;

const scripted = `<!doctype html><html><head><title>Scripted | Blog</title>
<script type="application/ld+json">{"@type":"Article","headline":"Ignored","author":{"name":"JSON Person"}}</script>
<style>body{font:1em serif}</style><style media="print">nav{display:none}</style>
<script>var a = "</p><p>not text";</script></head><body>
<nav class="menu"><a href="/">Blog</a></nav>
<!-- a comment with <p>markup</p> -->
<div class="article-body"><h1>Scripted | Blog</h1>
<div class="author" rel="author">Grace Hopper</div>
<svg width="10" height="10"><text>svg text</text></svg>
${prose(5, "Scripted")}
<noscript><img src="/lazy.png" alt="lazy"></noscript>
<img src="/pic.png" alt="A picture"> <script>document.write("x")</script>
<template><p>template text</p></template>
<p>Hidden <span style="display:none">secret</span> and <span hidden>hidden</span> words, with a <a href="javascript:void(0)">script link</a>.</p>
${prose(2, "End")}
</div>
<div class="comments">Comment section that is not the article.</div>
<footer>footer</footer></body></html>`;

const notArticle = `<!doctype html><html><head><title>Index of /files</title></head><body>
<h1>Index of /files</h1>
<table><tr><th>Name</th><th>Size</th></tr>
<tr><td><a href="a.tar.gz">a.tar.gz</a></td><td>12K</td></tr>
<tr><td><a href="b.zip">b.zip</a></td><td>3M</td></tr></table>
<form><input name="q"><button>Go</button></form>
<address>Apache Server</address></body></html>`;

/** Enough for isProbablyReaderable, under readability's 500 characters: readability retries with its flags off. */
const shortArticle = `<!doctype html><html><head><title>Ferry</title></head><body><div class="content"><script>var x = 1;</script><style>p{}</style>
<p>${"A short page says one thing: the ferry leaves at nine from the north pier, and on Sundays at ten; tickets are sold on board, cash only, and the crossing takes about forty minutes when the sea is calm, longer in the winter storms. Really."}</p>
<p>${"A short page says one thing: the ferry leaves at nine from the north pier, and on Sundays at ten; tickets are sold on board, cash only, and the crossing takes about forty minutes when the sea is calm, longer in the winter storms. Really."} Again.</p></div><div class="sidebar"><font color="red">Other</font> news<br><br>and more<br><br><br>news</div></body></html>`;

/** White space of every kind, in text, inline code, preformatted text and a table. */
const whitespace = `<!doctype html><html><head><title>Spaces</title></head><body><article>
<h1>  Spaces\u00a0and\ttabs  </h1>
${prose(4, "Spacey")}
<p>one two\u00a0three\u00a0\u00a0four \t five\n\nsix\u2003seven \u00a0 eight\r\nnine\ften\u200bzero-width\ufeffbom</p>
<p><code> a \n\t b\u00a0\u00a0c </code> and <kbd>Ctrl\u00a0 +\tC</kbd>, <em>  spaced  </em> <strong>\n</strong></p>
<pre>  keep\u00a0\u00a0this
\tand\u2003this  </pre>
<table><tr><td> a\n b </td><td>\u00a0</td></tr><tr><td>c\t\td</td><td> e | f </td></tr></table>
<ul><li> item\n one </li><li>\u00a0item two\u00a0</li></ul>
</article></body></html>`;

const noBody = `<html><head><title>  Spaced   title  </title></head></html>`;

/** [name, html] pairs; the big article is the bench's. */
export const PAGES: Array<[string, string]> = [
  ["bench article (12,000 paragraphs)", articleHtml(12000, "A Very Long Article")],
  ["small article", articleHtml()],
  ["docs page", docsHtml()],
  ["code blocks", codeBlocks],
  ["tables", tables],
  ["nested lists", nestedLists],
  ["scripts, styles, svg, comments, hidden text", scripted],
  ["white space of every kind", whitespace],
  ["short article (readability retries)", shortArticle],
  ["not an article (an index)", notArticle],
  ["no body", noBody],
  ["test site's unreadable page", "<!doctype html><html><head><title>Index</title></head><body><table><tr><td><a href='/a'>a.tar.gz</a></td><td>12K</td></tr></table></body></html>"],
];
