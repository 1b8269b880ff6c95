// Starts the lesson from an external module (Trunk's default is an inline script), so the
// page runs under a strict Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'.
// The wasm file is found next to this script, so dist/ works under any sub-path.
import init from './idem-web.js';

init();
