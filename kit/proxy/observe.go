package proxy

import (
	"net/http"
	"slices"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// An Observer watches the runs as they pass: the inspector. It is told
// of a run as its judge starts on it, of each frame with the engine's
// judgement as it passes, and of the run once judged. Its calls come from
// the run's judge goroutine, a run's in order, runs at once; they must
// return at once, for no byte waits for the judge, and the judge must not
// fall behind.
type Observer interface {
	Begin(Begin) RunObserver
}

// Begin is what is known of a run as its judge starts on it.
type Begin struct {
	Method, Path    string
	URL             string    // where it went, its secrets left out (agent.RedactURL)
	Started         time.Time // when the request came
	ThreadID, RunID string    // the input's; "" when it could not be read
	Input           []byte    // the RunAgentInput the client sent; nil when it could not be judged
	Headers         []string  // the request's header names, sorted; never their values
	Resume          bool      // the input carries a resume list
}

// RunObserver watches one run.
type RunObserver interface {
	// Frame is one event or SSE comment the stream brought, at its time
	// since the request, with the engine's judgement of an event. The
	// frame's bytes are valid only during the call.
	Frame(at time.Duration, f script.Frame, j agui.Judgement)
	// End is the run as reported.
	End(Run)
}

// headerNames are a request's header names, sorted: what an observer may
// show of them.
func headerNames(h http.Header) []string {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
