package server

import (
	"net/http"
)

// addRoutes is the server's whole surface, in one place.
func addRoutes(mux *http.ServeMux, cfg Config) {
	wasm := loadWasm(cfg.WebDir, cfg.Logger)
	api := withCORS(cfg.CORSOrigins)
	progress := withProgressDeadline(cfg.ProgressTimeout)

	mux.Handle("POST /api/agent-analysis", api(handleRun(cfg, newValidator(), newStreamSlots(cfg.MaxStreams))))
	mux.Handle("/api/agent-analysis", api(methodNotAllowed(http.MethodPost)))
	mux.Handle("GET /healthz", handleHealthz())
	mux.Handle("GET /{$}", http.RedirectHandler("/agent-analysis", http.StatusFound))
	mux.Handle("GET /web/app.wasm", progress(wasm))
	mux.Handle("GET "+wasm.url(), progress(wasm))
	mux.Handle("GET /web/", progress(handleStatic(cfg.WebDir)))
	mux.Handle("/", progress(handlePages(wasm, cfg.Scripts.Catalogue())))
}

func handleHealthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
}
