package server

import (
	"errors"
	"net/http"
	"time"

	"github.com/rs/cors"
)

// streamSlots caps the streams played at once. Each server.New has its own.
type streamSlots chan struct{}

func newStreamSlots(n int) streamSlots { return make(streamSlots, n) }

// take reserves a slot if one is free; the caller gives it back.
func (s streamSlots) take() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s streamSlots) give() { <-s }

// withCORS lets the listed origins call the API, preflight included, and
// gives problem answers the same headers so a browser client can read
// them. With no origins it adds nothing: same origin only.
func withCORS(origins []string) func(http.Handler) http.Handler {
	if len(origins) == 0 {
		return func(h http.Handler) http.Handler { return h }
	}
	c := cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodPost},
		AllowedHeaders: []string{"Content-Type", "Accept"},
		MaxAge:         600,
	})
	return c.Handler
}

// withProgressDeadline gives every write of a response a fresh deadline:
// a client that accepts nothing for d is dropped, one that reads slowly
// but keeps reading is not. (Streams set their own per-event deadline;
// the server has no WriteTimeout, which would cut them.)
func withProgressDeadline(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(&progressWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}, r)
		})
	}
}

type progressWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (p *progressWriter) Write(b []byte) (int, error) {
	if err := p.rc.SetWriteDeadline(time.Now().Add(p.d)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return 0, err
	}
	return p.ResponseWriter.Write(b)
}

func (p *progressWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }
