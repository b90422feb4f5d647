package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// appendFrame adds one event in the AG-UI SSE framing: one data line, LF only, blank line after.
func appendFrame(buf, event []byte) []byte {
	buf = append(buf, "data: "...)
	buf = append(buf, event...)
	return append(buf, '\n', '\n')
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
	steps        []fixtures.Step // the script, as this run sends it
	req          runInput
	noDelay      bool
	writeTimeout time.Duration
	onDispose    func(Disposal)
	log          *slog.Logger // each event at debug level
}

// play writes the steps, waiting each one's delay, until it ends, the
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

	var frame []byte
	for _, step := range s.steps {
		if step.After > 0 && !s.noDelay {
			if timer == nil {
				timer = time.NewTimer(step.After)
			} else {
				timer.Reset(step.After)
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

		frame = appendFrame(frame[:0], step.Event)
		if err := s.write(frame); err != nil {
			d.End = EndWriteFailed
			return d
		}
		d.Sent++
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.LogAttrs(ctx, slog.LevelDebug, "event", slog.String("runId", s.req.RunID),
				slog.Int("seq", d.Sent), slog.String("type", string(step.Type)))
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
