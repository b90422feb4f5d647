package server

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// addRoutes is the server's whole surface, in one place.
func addRoutes(mux *http.ServeMux, cfg Config) {
	wasm := loadWasm(cfg.WebDir, cfg.Logger)
	api := withCORS(cfg.CORSOrigins)
	progress := withProgressDeadline(cfg.ProgressTimeout)

	mux.Handle("POST /api/agent-analysis", api(handleRun(cfg, newStreamSlots(cfg.MaxStreams))))
	mux.Handle("/api/agent-analysis", api(methodNotAllowed(http.MethodPost)))
	mux.Handle("GET /healthz", handleHealthz())
	mux.Handle("GET /{$}", http.RedirectHandler("/agent-analysis", http.StatusFound))
	mux.Handle("GET /web/app.wasm", progress(wasm))
	mux.Handle("GET "+wasm.url(), progress(wasm))
	mux.Handle("GET /web/", progress(compressed(handleStatic(cfg.WebDir))))
	mux.Handle("/", progress(compressed(handlePages(wasm, cfg.Scripts.Catalogue()))))
}

// compressed gzips pages, scripts and styles: some 70 KB a first visit
// would otherwise carry raw, a third of a second on a slow phone. Only
// these small text types: the wasm brings its own encodings, and the event
// stream is never buffered.
var compressed = func() func(http.Handler) http.HandlerFunc {
	wrap, err := gzhttp.NewWrapper(gzhttp.ContentTypes([]string{
		"text/html", "text/css", "application/javascript", "text/javascript",
		"application/manifest+json", "image/svg+xml",
	}))
	if err != nil {
		panic(err) // the options above are constant
	}
	return wrap
}()

func handleHealthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
}
