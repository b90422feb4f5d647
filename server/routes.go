package server

import (
	"net/http"
)

// addRoutes is the server's whole surface, in one place.
func addRoutes(mux *http.ServeMux, cfg Config) {
	wasm := loadWasm(cfg.WebDir, cfg.Logger)
	mux.Handle("POST /api/agent-analysis", handleRun(cfg, newValidator()))
	mux.Handle("/api/agent-analysis", methodNotAllowed(http.MethodPost))
	mux.Handle("GET /healthz", handleHealthz())
	mux.Handle("GET /{$}", http.RedirectHandler("/agent-analysis", http.StatusFound))
	mux.Handle("GET /web/app.wasm", wasm)
	mux.Handle("GET "+wasm.url(), wasm)
	mux.Handle("GET /web/", handleStatic(cfg.WebDir))
	mux.Handle("/", handlePages(wasm))
}

func handleHealthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
}
