package server

import (
	"net/http"
	"path"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/ui"
)

// appWorker replaces go-app's cache-first service worker: it caches nothing
// and removes what an older worker cached, so a rebuilt wasm is always used.
const appWorker = `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});
`

// handlePages serves the prerendered go-app pages and go-app's own scripts.
// Without a built app.wasm the pages say how to build it instead.
func handlePages(wasm *wasmBuild, scenarios catalogue.Catalogue) http.Handler {
	ui.Register(scenarios)
	offered := scenarios.Encode()
	pages := &app.Handler{
		Name:         "Agent Analysis",
		ShortName:    "Agent Analysis",
		Title:        "Agent Analysis: AG-UI state sync demo",
		Description:  "A Go AG-UI client that holds validated state and applies JSON Patch deltas atomically.",
		Lang:         "en",
		Icon:         app.Icon{Default: "/web/icon.png", SVG: "/web/icon.svg"},
		Styles:       []string{"/web/agent-analysis.css"},
		LoadingLabel: "Loading the live client… {progress}%",
		Resources:    resolver{wasm: wasm.url()},
		// go-app's ETag for pages and scripts: app.js carries the catalogue.
		Version: wasm.version + "-" + shortHash(offered),
		Env:     map[string]string{ui.ScenariosEnv: offered},
		// The wasm is most of what a first visit downloads: start at once,
		// not after app.js has run (its loader's fetch takes this answer).
		RawHeaders:              []string{`<link rel="preload" href="` + wasm.url() + `" as="fetch" type="application/wasm" crossorigin="anonymous">`},
		WasmContentLengthHeader: "X-Wasm-Content-Length",
		ServiceWorkerTemplate:   appWorker,
	}
	if wasm.identity != nil {
		return pages
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if path.Ext(r.URL.Path) != "" || strings.HasPrefix(r.URL.Path, "/manifest") {
			pages.ServeHTTP(w, r) // go-app's scripts, manifest and worker
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(notBuiltPage))
	})
}

// notBuiltPage is what pages show when the server has no app.wasm.
const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent Analysis: the client is not built</title>
<link rel="stylesheet" href="/web/agent-analysis.css"></head>
<body><main class="page" id="main"><h1>The browser client is not built</h1>
<p>This server has no <code>app.wasm</code> in its web folder. Build it from the repository with
<code>make wasm</code> (or start everything with <code>make run</code>), then reload this page.
If the server runs from another directory, pass <code>-web /path/to/agent-analysis/web</code>.</p>
<p>The AG-UI endpoint <code>POST /api/agent-analysis</code> and <code>/healthz</code> work without it.</p>
</main></body></html>
`

// resolver keeps resource paths as they are, assets being served under
// /web/ by this server whatever its working directory, except the wasm,
// which it points at the build's versioned URL.
type resolver struct{ wasm string }

func (r resolver) Resolve(path string) string {
	if path == "/web/app.wasm" {
		return r.wasm
	}
	return path
}
