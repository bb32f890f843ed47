// Parse Mermaid diagrams with the real mermaid package: reads a JSON array of diagram
// sources on stdin, prints a JSON array of {ok, type} or {ok: false, error}.
// mermaid's sanitizer (DOMPurify) needs a window at import time, so jsdom provides one.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const source of JSON.parse(input)) {
  try {
    const parsed = await mermaid.parse(source);
    results.push({ ok: true, type: parsed.diagramType });
  } catch (err) {
    results.push({ ok: false, error: String(err.message || err).split('\n').slice(0, 3).join(' ') });
  }
}
process.stdout.write(JSON.stringify(results));
