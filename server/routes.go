package server

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// routes is the server's whole surface, in one place.
func routes(cfg Config) http.Handler {
	wasm := loadWasm(cfg.WebDir, cfg.Logger)
	cors := withCORS(cfg.CORSOrigins)
	api := func(h http.Handler) http.Handler { return withVaryAccept(cors(h)) }
	progress := withProgressDeadline(cfg.ProgressTimeout)
	run := api(handleRun(cfg, newSlots(cfg.MaxStreams)))

	mux := http.NewServeMux()
	mux.Handle("POST /api/agent-analysis", run)
	mux.Handle("/api/agent-analysis", api(methodNotAllowed(http.MethodPost)))
	mux.Handle("GET /healthz", handleHealthz())
	mux.Handle("GET /{$}", http.RedirectHandler("/agent-analysis", http.StatusFound))
	mux.Handle("GET /web/app.wasm", wasm)
	mux.Handle("GET "+wasm.url(), wasm)
	mux.Handle("GET /web/", compressed(handleStatic(cfg.WebDir)))
	mux.Handle("/", compressed(handlePages(wasm, cfg.Scripts.Catalogue())))
	// Every answer but a stream's is written within the progress deadline,
	// the mux's own (a redirect to a cleaned path) too; a stream sets its
	// own, event by event.
	return streamsFirst(run, progress(mux))
}

// streamsFirst hands a stream's request, most of what the server answers,
// to run before the mux walks its patterns, which took some 2% of the
// server's CPU at 16 streams at once (a perf profile under bench/peer's
// load). Its route is the mux's too, for any spelling of the path the
// exact match leaves to the mux.
func streamsFirst(run, mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/agent-analysis" {
			run.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
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
