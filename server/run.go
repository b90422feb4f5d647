package server

import (
	"fmt"
	"log/slog"
	"net/http"
)

var streamHeaders = http.Header{
	"Content-Type":      {"text/event-stream"},
	"Cache-Control":     {"no-cache"},
	"X-Accel-Buffering": {"no"}, // nginx would buffer the stream otherwise
}

// handleRun answers POST /api/agent-analysis: a checked RunAgentInput gets
// its scenario played as an AG-UI SSE stream; anything else a Problem.
func handleRun(cfg Config, slots streamSlots) http.Handler {
	framed := newTemplates(cfg.Scripts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, p := decodeRunInput(w, r, cfg.BodyTimeout, cfg.Scripts)
		if p != nil {
			writeProblem(w, p)
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
		if !slots.take() {
			addLogAttrs(w, slog.String("end", "over-capacity"))
			w.Header().Set("Retry-After", "5")
			writeProblem(w, problem(http.StatusServiceUnavailable, "too-many-streams", "Too many streams",
				fmt.Sprintf("This server plays at most %d streams at once; retry shortly.", cap(slots))))
			return
		}
		defer slots.give()

		setHeaders(w.Header(), streamHeaders)
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		s := stream{
			w: w, rc: rc, scripts: cfg.Scripts, req: req,
			noDelay: cfg.NoDelay, writeTimeout: cfg.WriteTimeout, onDispose: cfg.onDispose, log: cfg.Logger,
		}
		s.frames, s.ids = framed.forRequest(cfg.Scripts, req)
		// The client must see the stream open at once, and on HTTP/1.1 a
		// disconnect is only noticed once the response has started. When
		// the first event is due now, it carries the headers out; else they
		// go alone. A failed flush shows again on the first event.
		if s.frames[0].after > 0 && !cfg.NoDelay {
			_ = rc.Flush()
		}
		d := s.play(r.Context())
		addLogAttrs(w, slog.Int("events", d.Sent), slog.String("end", string(d.End)))
	})
}
