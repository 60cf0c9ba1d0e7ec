/**
 * A self-contained API reference page (no CDN: self-hosted installs may have no internet). It reads
 * /v1/openapi.json and lists every operation with its parameters, body and responses.
 */
export const REFERENCE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Messaging Automation API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem 2rem;color:#1d2330}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #dde;text-transform:capitalize}
.op{border:1px solid #dde;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.m{display:inline-block;min-width:4.5rem;font-weight:700;color:#fff;border-radius:4px;text-align:center;margin-right:.5rem}
.GET{background:#2f7bd9}.POST{background:#2a9d58}.PATCH{background:#c98a14}.DELETE{background:#c7423a}.PUT{background:#7a4ec2}
code,pre{background:#f4f5f8;border-radius:4px}pre{padding:.5rem;overflow:auto;font-size:12px}
table{border-collapse:collapse}td,th{border:1px solid #dde;padding:.2rem .5rem;text-align:left}
</style></head><body>
<h1>Messaging Automation API</h1><p id="meta">Loading…</p><div id="ops"></div>
<script>
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
fetch('openapi.json').then((r) => r.json()).then((doc) => {
  document.getElementById('meta').innerHTML = 'Version ' + esc(doc.info.version) + ' · base URL <code>' + esc(doc.servers[0].url) +
    '</code> · every request needs <code>Authorization: Bearer &lt;token&gt;</code> · <a href="openapi.json">openapi.json</a>';
  const byTag = {};
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) (byTag[op.tags[0]] ??= []).push([method.toUpperCase(), path, op]);
  let html = '';
  for (const [tag, ops] of Object.entries(byTag)) {
    html += '<h2>' + esc(tag) + '</h2>';
    for (const [method, path, op] of ops) {
      html += '<div class="op"><p><span class="m ' + method + '">' + method + '</span><code>' + esc(path) + '</code> ' + esc(op.summary) + '</p>';
      if (op.description) html += '<p>' + esc(op.description) + '</p>';
      if (op.parameters.length) html += '<table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>' + op.parameters.map((p) =>
        '<tr><td>' + esc(p.name) + '</td><td>' + p.in + '</td><td>' + p.required + '</td><td><code>' + esc(JSON.stringify(p.schema)) + '</code></td></tr>').join('') + '</table>';
      if (op.requestBody) html += '<p>Body</p><pre>' + esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)) + '</pre>';
      for (const [status, res] of Object.entries(op.responses)) {
        const schema = res.content && res.content['application/json'].schema;
        html += '<details><summary>' + status + ' ' + esc(res.description) + '</summary>' + (schema ? '<pre>' + esc(JSON.stringify(schema, null, 2)) + '</pre>' : '') + '</details>';
      }
      html += '</div>';
    }
  }
  document.getElementById('ops').innerHTML = html;
});
</script></body></html>`;
