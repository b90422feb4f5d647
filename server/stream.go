package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// cue is one step of a script, its SSE frame rendered once. Run events have
// no frame: they echo each request's ids and are rendered per request.
type cue struct {
	after time.Duration
	event events.EventType
	frame []byte // nil for run events
}

type playlist []cue

// newPlaylists renders every fixture script into frames, once per server.
func newPlaylists() map[string]playlist {
	lists := make(map[string]playlist)
	for _, name := range fixtures.Scenarios() {
		script, _ := fixtures.Lookup(name)
		list := make(playlist, len(script.Steps))
		for i, step := range script.Steps {
			list[i] = cue{after: step.After, event: step.Type}
			if !step.IsRunEvent() {
				list[i].frame = sseFrame(step.Event)
			}
		}
		lists[name] = list
	}
	return lists
}

// sseFrame is the AG-UI SSE framing: one data line, LF only, blank line after.
func sseFrame(event []byte) []byte {
	frame := make([]byte, 0, len(event)+8)
	frame = append(frame, "data: "...)
	frame = append(frame, event...)
	return append(frame, '\n', '\n')
}

// runEventFrame renders RUN_STARTED or RUN_FINISHED for one request, without
// a timestamp so that streams are deterministic.
func runEventFrame(t events.EventType, threadID, runID string) []byte {
	var ev events.Event
	if t == events.EventTypeRunStarted {
		ev = events.NewRunStartedEvent(threadID, runID)
	} else {
		ev = events.NewRunFinishedEvent(threadID, runID)
	}
	ev.GetBaseEvent().TimestampMs = nil
	data, _ := json.Marshal(ev) // strings only: cannot fail
	return sseFrame(data)
}

// End says why a stream stopped.
type End string

const (
	EndCompleted   End = "completed"
	EndClientGone  End = "client-gone"
	EndShutdown    End = "shutdown"
	EndWriteFailed End = "write-failed"
)

// Disposal reports one stream's release of its resources.
type Disposal struct {
	Scenario string
	Sent     int // events written and flushed
	End      End
}

// stream is one request's playback: it owns the cursor and the timer.
type stream struct {
	w            io.Writer
	rc           *http.ResponseController
	list         playlist
	req          runInput
	noDelay      bool
	writeTimeout time.Duration
	onDispose    func(Disposal)
	log          *slog.Logger // each event at debug level
}

// play writes the playlist, waiting each cue's delay, until it ends, the
// request's context ends or a write fails. Its deferred release is the single
// place the timer stops, so disposal happens exactly once and nothing is
// written after it.
func (s *stream) play(ctx context.Context) (d Disposal) {
	d.Scenario = s.req.Scenario
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
		if s.onDispose != nil {
			s.onDispose(d)
		}
	}()

	for _, c := range s.list {
		if c.after > 0 && !s.noDelay {
			if timer == nil {
				timer = time.NewTimer(c.after)
			} else {
				timer.Reset(c.after)
			}
			select {
			case <-ctx.Done():
				d.End = ended(ctx)
				return d
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			d.End = ended(ctx)
			return d
		}

		frame := c.frame
		if frame == nil {
			frame = runEventFrame(c.event, s.req.ThreadID, s.req.RunID)
		}
		if err := s.write(frame); err != nil {
			d.End = EndWriteFailed
			return d
		}
		d.Sent++
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.LogAttrs(ctx, slog.LevelDebug, "event", slog.String("runId", s.req.RunID),
				slog.Int("seq", d.Sent), slog.String("type", string(c.event)))
		}
	}
	d.End = EndCompleted
	return d
}

func (s *stream) write(frame []byte) error {
	// Streams have no server-wide WriteTimeout; each write gets its own.
	if err := s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := s.w.Write(frame); err != nil {
		return err
	}
	return s.rc.Flush()
}

func ended(ctx context.Context) End {
	if errors.Is(context.Cause(ctx), ErrShutdown) {
		return EndShutdown
	}
	return EndClientGone
}
