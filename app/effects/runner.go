package effects

import (
	"context"
	"sync"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// Runner performs the Cmds Update returns. It owns one cancel func per
// open stream, keyed by the run's generation.
type Runner struct {
	client Client
	send   func(core.Msg)
	mu     sync.Mutex
	open   map[core.Generation]context.CancelFunc
	wg     sync.WaitGroup
}

// NewRunner streams runs with c and delivers their Msgs through send.
func NewRunner(c Client, send func(core.Msg)) *Runner {
	return &Runner{client: c, send: send, open: make(map[core.Generation]context.CancelFunc)}
}

// Perform runs a Cmd. A nil Cmd does nothing.
func (r *Runner) Perform(cmd core.Cmd) {
	switch cmd := cmd.(type) {
	case core.Sequence:
		for _, c := range cmd {
			r.Perform(c)
		}
	case core.StartStream:
		ctx, cancel := context.WithCancel(context.Background())
		g := cmd.Run.Generation // each run's own: a stream's entry is no other's
		r.mu.Lock()
		r.open[g] = cancel
		r.mu.Unlock()
		r.wg.Go(func() {
			r.client.Stream(ctx, cmd.Run, r.send)
			r.abort(g) // a stream that ended by itself lets go of its entry too
		})
	case core.AbortStream:
		r.abort(cmd.Generation)
	}
}

// abort cancels a stream's context and forgets it, once.
func (r *Runner) abort(g core.Generation) {
	r.mu.Lock()
	cancel := r.open[g]
	delete(r.open, g)
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// OpenStreams is how many streams have started and neither ended nor
// been aborted.
func (r *Runner) OpenStreams() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.open)
}

// Close aborts every open stream, for component dismount. It does not
// wait: a stream may be delivering to the very goroutine that calls Close.
func (r *Runner) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for g, cancel := range r.open {
		cancel()
		delete(r.open, g)
	}
}

// Wait blocks until every stream goroutine has returned.
func (r *Runner) Wait() { r.wg.Wait() }
