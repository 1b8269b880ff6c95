// A tiny static server for dist/, mounted under a sub-path (as a course site would embed the
// lesson), on 127.0.0.1 and a random free port. No dependencies beyond node itself.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/** The strict policy every page is served with: no inline script or style, no other hosts. */
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

/** Serves `root` under `prefix` (e.g. "/course/lab/"); resolves to { url, close }. With
 * `gzip`, a client that accepts it gets each file gzip-compressed (level 9, as
 * scripts/size.sh counts), as a static host would serve it; `csp` replaces the policy (a host
 * page that forbids workers, say). */
export async function serve(root, prefix = '/course/lab/', { gzip = false, csp = CSP } = {}) {
  const zipped = new Map();
  const base = resolve(root);
  await stat(join(base, 'index.html')); // fail early when dist/ was not built
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    const file = normalize(join(base, rel));
    if (!file.startsWith(base)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      let body = await readFile(file);
      const compress = gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      if (compress) {
        if (!zipped.has(file)) zipped.set(file, gzipSync(body, { level: 9 }));
        body = zipped.get(file);
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'content-security-policy': csp,
        ...(compress ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}
