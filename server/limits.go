package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rs/cors"
)

// slots cap how many of a thing happen at once: the streams played (each
// server.New has its own) and the large inputs read (largeReads).
type slots chan struct{}

func newSlots(n int) slots { return make(slots, n) }

// take reserves a slot if one is free; the caller gives it back.
func (s slots) take() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s slots) give() { <-s }

// withCORS lets the listed origins call the API, preflight included, and
// gives problem answers the same headers so a browser client can read
// them. With no origins it adds nothing: same origin only. A preflight
// from an origin not allowed gets a 403 problem naming the flag that
// allows it: the browser only says the preflight failed, the server's
// log and a curl say why.
func withCORS(origins []string) func(http.Handler) http.Handler {
	refuse := func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		detail := fmt.Sprintf("This server lets no page of %q call the API: start it with -cors-origins %s (comma-separated origins, or *).", origin, origin)
		if origin == "null" { // a file's page, a sandboxed frame: no origin to name
			detail = "This server lets no page of origin null (a file's, or a sandboxed frame's) call the API: only -cors-origins * lets it in."
		}
		writeProblem(w, problem(http.StatusForbidden, "origin-not-allowed", "Origin not allowed", detail))
	}
	if len(origins) == 0 {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if preflight(r) {
					refuse(w, r)
					return
				}
				next.ServeHTTP(w, r)
			})
		}
	}
	c := cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodPost},
		AllowedHeaders: []string{"Content-Type", "Accept"},
		ExposedHeaders: []string{"Retry-After"}, // the 503's: when to try again
		MaxAge:         600,
	})
	return func(next http.Handler) http.Handler {
		h := c.Handler(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if preflight(r) && !c.OriginAllowed(r) {
				refuse(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
}

// preflight reports whether r is a browser's CORS preflight.
func preflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != ""
}

// withProgressDeadline gives a response a deadline, and every write of
// it a fresh one: a client that accepts nothing for d is dropped, one
// that reads slowly but keeps reading is not. The first covers an answer
// net/http writes once the handler returns (headers alone, a small
// body): a client that pipelines requests and reads none of the answers
// fills its window, and would hold its connection for ever. (Streams
// set their own per-event deadline; the server has no WriteTimeout,
// which would cut them.)
func withProgressDeadline(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := &progressWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}
			if p.extend() != nil {
				return
			}
			next.ServeHTTP(p, r)
		})
	}
}

type progressWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (p *progressWriter) Write(b []byte) (int, error) {
	if err := p.extend(); err != nil {
		return 0, err
	}
	return p.ResponseWriter.Write(b)
}

// extend moves the response's deadline to d from now.
func (p *progressWriter) extend() error {
	if err := p.rc.SetWriteDeadline(time.Now().Add(p.d)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

func (p *progressWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }
