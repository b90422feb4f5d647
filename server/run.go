package server

import (
	"log/slog"
	"net/http"

	"github.com/go-playground/validator/v10"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// handleRun answers POST /api/agent-analysis: a checked RunAgentInput gets
// its scenario played as an AG-UI SSE stream; anything else a Problem.
func handleRun(cfg Config, v *validator.Validate) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, p := decodeRunInput(w, r, v)
		if p != nil {
			writeProblem(w, p)
			return
		}
		addLogAttrs(r.Context(), slog.String("scenario", req.Scenario),
			slog.String("threadId", req.ThreadID), slog.String("runId", req.RunID))

		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		// Headers go out at once: the client sees the stream open and, on
		// HTTP/1.1, disconnects are only noticed once the response started.
		// A failed flush shows again on the first event and ends the stream.
		_ = rc.Flush()

		script, _ := fixtures.Lookup(req.Scenario) // decodeRunInput checked it exists
		s := stream{
			w: w, rc: rc, steps: script.ForRun(req.ThreadID, req.RunID), req: req,
			noDelay: cfg.NoDelay, writeTimeout: cfg.WriteTimeout, onDispose: cfg.OnDispose, log: cfg.Logger,
		}
		d := s.play(r.Context())
		addLogAttrs(r.Context(), slog.Int("events", d.Sent), slog.String("end", string(d.End)))
	})
}
