package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"

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
func handlePages(webDir string) http.Handler {
	ui.Register()
	return &app.Handler{
		Name:                  "Agent Analysis",
		ShortName:             "Agent Analysis",
		Title:                 "Agent Analysis — AG-UI state sync demo",
		Description:           "A Go AG-UI client that holds validated state and applies JSON Patch deltas atomically.",
		Lang:                  "en",
		Icon:                  app.Icon{Default: "/web/icon.png", SVG: "/web/icon.svg"},
		Styles:                []string{"/web/agent-analysis.css"},
		LoadingLabel:          "Loading the live client… {progress}%",
		Resources:             sameOrigin{},
		Version:               assetVersion(webDir),
		ServiceWorkerTemplate: appWorker,
	}
}

// sameOrigin resolves resource paths unchanged: assets are served under
// /web/ by this server, whatever its working directory.
type sameOrigin struct{}

func (sameOrigin) Resolve(path string) string { return path }

// assetVersion hashes the built wasm: go-app uses it as the ETag of every
// page and script, so a rebuild is always picked up.
func assetVersion(webDir string) string {
	f, err := os.Open(filepath.Join(webDir, "app.wasm"))
	if err != nil {
		return "no-wasm"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "no-wasm"
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// handleAssets serves /web/ from webDir.
func handleAssets(webDir string) http.Handler {
	return http.StripPrefix("/web/", http.FileServer(http.Dir(webDir)))
}
