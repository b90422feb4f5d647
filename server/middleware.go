package server

import (
	"log/slog"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// contentSecurityPolicy allows only this origin, plus compiling the wasm.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; " +
	"manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

var securityHeaders = []header{
	{"Content-Security-Policy", []string{contentSecurityPolicy}},
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"Referrer-Policy", []string{"no-referrer"}},
}

// apiSecurityHeaders are the API's. Its answers (streams, problems) are
// never documents: nothing in them may load or frame anything, and with
// no links to follow a referrer policy has nothing to govern. Each
// header a stream carries is sorted, cleaned and written per answer;
// these are a fifth of the pages' bytes.
var apiSecurityHeaders = []header{
	{"Content-Security-Policy", []string{"default-src 'none'; frame-ancestors 'none'"}},
	{"X-Content-Type-Options", []string{"nosniff"}},
}

func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			setHeaders(w.Header(), apiSecurityHeaders)
		} else {
			setHeaders(w.Header(), securityHeaders)
		}
		next.ServeHTTP(w, r)
	})
}

// A header is a constant one: its canonical name and its value.
type header struct {
	name  string
	value []string
}

// setHeaders sets constant headers. Their slices are shared, not copied
// as Header.Set copies each value: net/http only reads them, and adding a
// value to one makes a new slice. (A list, not an http.Header: walking a
// map for every answer cost more than the assignments.)
func setHeaders(h http.Header, constant []header) {
	for _, c := range constant {
		h[c.name] = c.value
	}
}

// headerValue is h.Get(name) for a canonical name, without Get's
// canonicalising the name again on every request.
func headerValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// requestLog is the writer a request is answered through: it remembers
// the status and gathers what handlers add to the request's log line.
// (The line travels with the writer the middleware wraps anyway, rather
// than in the request's context, which would copy the request.) Unwrap
// lets http.ResponseController reach the real writer's Flush and
// SetWriteDeadline.
type requestLog struct {
	http.ResponseWriter
	status int
	mu     sync.Mutex
	attrs  []slog.Attr
}

func (l *requestLog) WriteHeader(code int) {
	if l.status == 0 {
		l.status = code
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *requestLog) Unwrap() http.ResponseWriter { return l.ResponseWriter }

// addLogAttrs adds attributes to the log line of the request w answers,
// if it has one.
func addLogAttrs(w http.ResponseWriter, attrs ...slog.Attr) {
	for {
		switch x := w.(type) {
		case *requestLog:
			x.mu.Lock()
			x.attrs = append(x.attrs, attrs...)
			x.mu.Unlock()
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return
		}
	}
}

// requestLogs are kept between requests: a line's attributes take some
// 400 bytes, on every request. Nothing holds a requestLog once its
// request's handler has returned.
var requestLogs = sync.Pool{New: func() any {
	// The line's own four attributes go first, once the request ends;
	// room for the six a stream's handler adds.
	return &requestLog{attrs: make([]slog.Attr, 4, 10)}
}}

// release empties l into the pool; a line that grew past its room is
// left to the collector.
func (l *requestLog) release() {
	if cap(l.attrs) > 10 {
		return
	}
	clear(l.attrs)
	l.ResponseWriter, l.status, l.attrs = nil, 0, l.attrs[:4]
	requestLogs.Put(l)
}

// withRequestLog writes one structured line per request when it ends:
// method, path, status, duration and whatever the handler added.
func withRequestLog(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		l := requestLogs.Get().(*requestLog)
		defer l.release()
		l.ResponseWriter = w
		next.ServeHTTP(l, r)

		status := l.status
		if status == 0 {
			status = http.StatusOK
		}
		// Pages and the API at info; scripts, styles and the wasm only
		// with -debug.
		level := slog.LevelInfo
		switch {
		case status >= 500:
			level = slog.LevelError
		case path.Ext(r.URL.Path) != "":
			level = slog.LevelDebug
		}
		l.attrs[0] = slog.String("method", r.Method)
		l.attrs[1] = slog.String("path", r.URL.Path)
		l.attrs[2] = slog.Int("status", status)
		end := time.Now()
		l.attrs[3] = slog.Duration("duration", end.Sub(start))
		// Handed to the handler as Logger.LogAttrs would, less the stack
		// walk for a source line, which no handler here asks for.
		if h := logger.Handler(); h.Enabled(r.Context(), level) {
			line := slog.NewRecord(end, level, "request", 0)
			line.AddAttrs(l.attrs...)
			_ = h.Handle(r.Context(), line)
		}
	})
}
