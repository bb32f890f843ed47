// Parse Mermaid diagrams with the real mermaid package. Each line on stdin is a JSON array
// of diagram sources; each answer is one line: a JSON array of {ok, type} or {ok: false, error}.
// (One process serves many requests: importing mermaid is the slow part.)
// mermaid's sanitizer (DOMPurify) needs a window at import time, so jsdom provides one.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

import readline from 'node:readline';

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const results = [];
  for (const source of JSON.parse(line)) {
    try {
      const parsed = await mermaid.parse(source);
      results.push({ ok: true, type: parsed.diagramType });
    } catch (err) {
      results.push({ ok: false, error: String(err.message || err).split('\n').slice(0, 3).join(' ') });
    }
  }
  process.stdout.write(JSON.stringify(results) + '\n');
}
