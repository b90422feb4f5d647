package server

import (
	"context"
	"log/slog"
	"net/http"
	"path"
	"sync"
	"time"
)

// contentSecurityPolicy allows only this origin, plus compiling the wasm.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; " +
	"manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

var securityHeaders = http.Header{
	"Content-Security-Policy": {contentSecurityPolicy},
	"X-Content-Type-Options":  {"nosniff"},
	"Referrer-Policy":         {"no-referrer"},
}

func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setHeaders(w.Header(), securityHeaders)
		next.ServeHTTP(w, r)
	})
}

// setHeaders sets constant headers, canonical names to one value each.
// Their slices are shared, not copied as Header.Set copies each value:
// net/http only reads them, and adding a value to one makes a new slice.
func setHeaders(h, constant http.Header) {
	for name, values := range constant {
		h[name] = values
	}
}

// requestLog collects attributes handlers add while serving one request.
type requestLog struct {
	mu    sync.Mutex
	attrs []slog.Attr
}

type requestLogKey struct{}

// addLogAttrs adds attributes to the request's log line, if it has one.
func addLogAttrs(ctx context.Context, attrs ...slog.Attr) {
	if l, ok := ctx.Value(requestLogKey{}).(*requestLog); ok {
		l.mu.Lock()
		l.attrs = append(l.attrs, attrs...)
		l.mu.Unlock()
	}
}

// withRequestLog writes one structured line per request when it ends:
// method, path, status, duration and whatever the handler added.
func withRequestLog(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// The line's own four attributes go first, once the request ends;
		// room for what a stream's handler adds.
		l := &requestLog{attrs: make([]slog.Attr, 4, 12)}
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), requestLogKey{}, l)))

		status := rec.status
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

// statusRecorder remembers the status; Unwrap lets http.ResponseController
// reach the real writer's Flush and SetWriteDeadline.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
