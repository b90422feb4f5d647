package server

import (
	"log/slog"
	"net"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/page"
)

// InspectorConfig is what the inspector's server serves: proxy -inspect
// and inspect run it, on an address of its own.
type InspectorConfig struct {
	// API answers /api/: the runs (kit/inspect's Store.Handler).
	API http.Handler
	// WebDir holds the stylesheet and the built inspector.wasm.
	WebDir string
	// Port is the port it listens on: a request must name it, with
	// localhost or an IP address, in its Host (AllowedHost).
	Port   string
	Logger *slog.Logger
}

// NewInspector serves the inspector: its page at /, its assets, and the
// runs' API. It sends no CORS headers, answers only a Host it can be
// reached by without DNS, refuses a browser's request to change anything
// (POST /api/open) from another origin (http.CrossOriginProtection), and
// never reaches an agent: a page the developer visits can neither read it
// nor act through it.
func NewInspector(cfg InspectorConfig) http.Handler {
	if cfg.WebDir == "" {
		cfg.WebDir = "web"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	wasm := loadWasmFile(cfg.WebDir, "inspector.wasm", cfg.Logger)
	progress := withProgressDeadline(30 * time.Second)
	mux := http.NewServeMux()
	mux.Handle("/api/", cfg.API)
	mux.Handle("GET "+wasm.url(), progress(wasm))
	mux.Handle("GET /web/inspector.wasm", progress(wasm))
	mux.Handle("GET /web/", progress(compressed(handleStatic(cfg.WebDir))))
	mux.Handle("/", progress(compressed(inspectorPages(wasm))))
	sameOrigin := http.NewCrossOriginProtection()
	sameOrigin.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "the inspector takes files only from its own page, not from another origin's", http.StatusForbidden)
	}))
	return withHostCheck(cfg.Port, withSecurityHeaders(withRequestLog(cfg.Logger, sameOrigin.Handler(mux))))
}

// inspectorPages serves the inspector's one page, at /, and go-app's
// scripts; without a built inspector.wasm, a page saying how to build it.
// Any other page is not found: the demo's routes live in the same process
// (go-app's routes are global), not on this server.
func inspectorPages(wasm *wasmBuild) http.Handler {
	page.Register()
	pages := &app.Handler{
		Name:                    "Agent Analysis inspector",
		ShortName:               "Inspector",
		Title:                   "Agent Analysis: the AG-UI inspector",
		Description:             "AG-UI runs, each judged against the spec: events, conversation and state.",
		Lang:                    "en",
		Icon:                    app.Icon{Default: "/web/icon.png", SVG: "/web/icon.svg"},
		Styles:                  []string{"/web/agent-analysis.css", "/web/inspector.css"},
		LoadingLabel:            "Loading the inspector… {progress}%",
		Resources:               resolver{wasm: wasm.url()},
		Version:                 wasm.version,
		WasmContentLengthHeader: "X-Wasm-Content-Length",
		ServiceWorkerTemplate:   appWorker,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := path.Ext(r.URL.Path) == "" && !strings.HasPrefix(r.URL.Path, "/manifest")
		switch {
		case page && r.URL.Path != "/":
			http.NotFound(w, r)
		case page && wasm.identity == nil:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(inspectorNotBuilt))
		default:
			pages.ServeHTTP(w, r)
		}
	})
}

// inspectorNotBuilt is the page without an inspector.wasm.
const inspectorNotBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent Analysis: the inspector is not built</title>
<link rel="stylesheet" href="/web/agent-analysis.css"></head>
<body><main class="page" id="main"><h1>The inspector is not built</h1>
<p>This server has no <code>inspector.wasm</code> in its web folder. Build it from the repository with
<code>make wasm</code>, then reload this page. If the command runs from another directory, pass
<code>-web /path/to/agent-analysis/web</code>.</p>
<p>The runs are kept meanwhile: <a href="/api/runs">/api/runs</a> lists them as JSON.</p>
</main></body></html>
`

// withHostCheck answers only requests whose Host is localhost or an IP
// address, on port: a name a DNS server gives (a web page rebinding its own
// name to this machine) is refused, so that no page the developer visits
// can read the traffic the inspector shows.
func withHostCheck(port string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !AllowedHost(r.Host, port) {
			http.Error(w, "the inspector answers only its own address (localhost or an IP address, port "+port+")", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// AllowedHost reports whether a request's Host names the inspector
// without DNS: localhost, or an IP address, and its port.
func AllowedHost(host, port string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != port {
		return false
	}
	return strings.EqualFold(h, "localhost") || net.ParseIP(h) != nil
}
