package server

import (
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

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
func handlePages(wasm *wasmBuild) http.Handler {
	ui.Register()
	return &app.Handler{
		Name:                    "Agent Analysis",
		ShortName:               "Agent Analysis",
		Title:                   "Agent Analysis: AG-UI state sync demo",
		Description:             "A Go AG-UI client that holds validated state and applies JSON Patch deltas atomically.",
		Lang:                    "en",
		Icon:                    app.Icon{Default: "/web/icon.png", SVG: "/web/icon.svg"},
		Styles:                  []string{"/web/agent-analysis.css"},
		LoadingLabel:            "Loading the live client… {progress}%",
		Resources:               resolver{wasm: wasm.url()},
		Version:                 wasm.version, // go-app's ETag for pages and scripts
		WasmContentLengthHeader: "X-Wasm-Content-Length",
		ServiceWorkerTemplate:   appWorker,
	}
}

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
