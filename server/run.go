package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

var streamHeaders = []header{
	{"Cache-Control", []string{"no-cache"}},
	{"X-Accel-Buffering", []string{"no"}}, // nginx would buffer the stream otherwise
}

// Header values set on every run, shared as setHeaders shares them.
var (
	varyAccept    = []string{"Accept"}
	contentTypeOf = map[wire][]string{sse: {sse.contentType()}, binary: {binary.contentType()}}
)

// handleRun answers POST /api/agent-analysis: a checked RunAgentInput gets
// its scenario played as an AG-UI stream, SSE or binary as the request's
// Accept says (negotiate.go); anything else a Problem.
func handleRun(cfg Config, streams slots) http.Handler {
	rs := &runs{cfg: cfg, streams: streams, framed: newTemplates(cfg.Scripts)}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		req, p := decodeRunInput(w, rc, r, rs.cfg.BodyTimeout, rs.cfg.Scripts)
		if p != nil {
			rs.refuse(w, rc, p)
			return
		}
		rs.serve(w, r, rc, req)
	})
}

// refuse answers a problem, within WriteTimeout as a stream's event is
// written: net/http writes it once the handler returns, and a client that
// accepts nothing would hold the connection for ever.
func (rs *runs) refuse(w http.ResponseWriter, rc *http.ResponseController, p *Problem) {
	_ = rc.SetWriteDeadline(time.Now().Add(rs.cfg.WriteTimeout))
	writeProblem(w, p)
}

// withVaryAccept says on every answer of the API, problems and CORS's
// answers too, that it varies by Accept, which chooses a stream's
// encoding: a cache keeps an SSE answer from a client asking for binary.
func withVaryAccept(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := w.Header(); h["Vary"] == nil {
			h["Vary"] = varyAccept
		} else {
			h["Vary"] = append(h["Vary"], "Accept")
		}
		next.ServeHTTP(w, r)
	})
}

// runs answers the checked requests of one handleRun.
type runs struct {
	cfg     Config
	streams slots
	framed  templates
}

// serve answers a checked request: its scenario's stream, or the problem
// that stops it. It is a function of its own, not part of handleRun's, so
// that its frame (the stream, the log's attributes) is not on the stack
// while the input is read, the deepest a request goes: a request that
// took a goroutine's stack past 8 KiB grew it again after every
// collection, which had shrunk it as the connection idled
// (runtime.newstack, about 1% of a stream's CPU under bench/peer's load).
func (rs *runs) serve(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, req runInput) {
	frames, id, cannotCarry := rs.framed.forRequest(rs.cfg.Scripts, req)
	accept := acceptOf(r.Header)
	wire, ok := negotiate(accept).pick(cannotCarry == nil)
	if !ok {
		rs.refuse(w, rc, notAcceptable(accept, req.Scenario, cannotCarry))
		return
	}
	addLogAttrs(w, slog.String("scenario", req.Scenario),
		slog.String("threadId", req.ThreadID), slog.String("runId", req.RunID))
	if req.Continuation != nil {
		addLogAttrs(w, slog.String("continuation", req.Continuation.Name))
	}
	if len(req.Warnings) > 0 {
		addLogAttrs(w, slog.Any("inputWarnings", req.Warnings))
	}
	if !rs.streams.take() {
		addLogAttrs(w, slog.String("end", "over-capacity"))
		w.Header().Set("Retry-After", "5")
		rs.refuse(w, rc, problem(http.StatusServiceUnavailable, "too-many-streams", "Too many streams",
			fmt.Sprintf("This server plays at most %d streams at once; retry shortly.", cap(rs.streams))))
		return
	}
	defer rs.streams.give()

	setHeaders(w.Header(), streamHeaders)
	w.Header()["Content-Type"] = contentTypeOf[wire]
	if wire == binary {
		addLogAttrs(w, slog.String("encoding", "binary"))
	}
	w.Header()["Date"] = dateHeader(time.Now())
	w.WriteHeader(http.StatusOK)
	s := stream{
		w: w, rc: *rc, scripts: rs.cfg.Scripts, req: req, frames: frames, ids: id, wire: wire,
		noDelay: rs.cfg.NoDelay, writeTimeout: rs.cfg.WriteTimeout, onDispose: rs.cfg.onDispose, log: rs.cfg.Logger,
	}
	// The client must see the stream open at once, and on HTTP/1.1 a
	// disconnect is only noticed once the response has started. When
	// the first event is due now, it carries the headers out; else they
	// go alone. A failed flush shows again on the first event.
	if s.frames[0].after > 0 && !rs.cfg.NoDelay {
		_ = rc.SetWriteDeadline(time.Now().Add(rs.cfg.WriteTimeout)) // as every event's write has
		_ = rc.Flush()
	}
	d := s.play(r.Context())
	addLogAttrs(w, slog.Int("events", d.Sent), slog.String("end", string(d.End)))
}

// notAcceptable is the answer to a request whose Accept allows no
// encoding the script can be sent in.
func notAcceptable(accept, scenario string, cannotCarry error) *Problem {
	detail := fmt.Sprintf("This endpoint answers %s or %s; Accept %q allows neither.", sse.contentType(), binary.contentType(), accept)
	if cannotCarry != nil {
		detail = fmt.Sprintf("Script %q can only be sent as %s: AG-UI's binary transport cannot carry its %v. Accept %q does not allow %s.",
			scenario, sse.contentType(), cannotCarry, accept, sse.contentType())
	}
	return problem(http.StatusNotAcceptable, "not-acceptable", "Not acceptable", detail)
}
