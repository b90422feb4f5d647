package agent

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// reading is one run as it goes. Times are since the request was sent.
type reading struct {
	Request
	ex          Exchange
	start       time.Time
	timeout     time.Duration
	lastFrame   time.Duration // when the last frame arrived (0: none yet)
	lastArrival time.Duration // when the last bytes, or the answer's headers, arrived
	received    int           // the body's bytes, as sent (before unzipping)
	lastBytes   time.Duration // when the last of them arrived
	kept        int           // bytes of the frames kept, as a script writes them
	activeRun   string        // the run active as the engine last judged (at the end, or at a broken rule); "" if none
	events      int           // the events read so far
	types       []string      // their types, the first MaxStoppedTypes
	// stop ends the run from inside a read (a comment arrives within
	// sse.Reader.Next): the body's next read fails with the cause, and
	// no frame is taken after it.
	stop context.CancelCauseFunc
}

func (run *reading) fail(rule, format string, args ...any) {
	run.ex.Failures = append(run.ex.Failures, rules.Failure{Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// Decoded is body as sent before its Content-Encoding: a gzip body is
// unzipped as it is read (a run's, and one the proxy passes as it came);
// another encoding is not read (encoded says so).
func Decoded(body io.Reader, encoding string) (_ io.Reader, encoded error) {
	switch enc := strings.ToLower(strings.TrimSpace(encoding)); enc {
	case "", "identity":
		return body, nil
	case "gzip":
		return &gunzip{src: ending{Reader: body}}, nil
	default:
		return body, fmt.Errorf("the stream is %s-encoded: identity and gzip streams are read", enc)
	}
}

// gunzip unzips src from its first read on, so that a stream that ends,
// times out or is stopped before its first bytes ends as any other does.
type gunzip struct {
	src ending
	z   *gzip.Reader
	err error // a header that is not gzip's, for every read
}

func (g *gunzip) Read(p []byte) (int, error) {
	if g.z == nil && g.err == nil {
		g.z, g.err = gzip.NewReader(&g.src)
	}
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.z.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) && g.src.ended {
		err = errGzipCut // the body came whole, its gzip did not
	}
	return n, err
}

// errGzipCut is a body that ended, as HTTP goes, inside its gzip encoding:
// no connection broke. It is an io.ErrUnexpectedEOF.
var errGzipCut = fmt.Errorf("its gzip encoding ended short of its trailer: %w", io.ErrUnexpectedEOF)

// ending is a reader that remembers whether it ended (io.EOF).
type ending struct {
	io.Reader
	ended bool
}

func (e *ending) Read(p []byte) (int, error) {
	n, err := e.Reader.Read(p)
	e.ended = e.ended || err == io.EOF
	return n, err
}

// breakOf words what ended a stream early, and how: the connection, or
// the body's gzip encoding cut short.
func breakOf(err error) (what, how string) {
	switch {
	case errors.Is(err, errGzipCut):
		return "the answer's gzip encoding ended short of its trailer", ""
	case err == nil:
		return "the connection broke", ""
	}
	return "the connection broke", ": " + err.Error()
}

// NotGzip says whether err is gzip's finding that its stream is not gzip.
func NotGzip(err error) bool {
	var flateErr flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &flateErr)
}

// read reads the stream to its end, the engine judging each event as it
// arrives (Watch). It goes on after a violation: the transport is still
// checked, and a recording keeps all that was sent.
func (run *reading) read(ctx context.Context, body io.Reader, consumer *agui.Consumer) {
	watch := watchUntil
	if run.ex.Transport.Binary() {
		watch = watchBinaryUntil
	}
	peek := bufio.NewReader(body)
	if head, _ := peek.Peek(5); !run.ex.Transport.Binary() && proto.IsBinary(head) {
		run.ex.Transport.Took = time.Since(run.start)
		run.fail(rules.ContentType, "the body is AG-UI's binary transport (%s), sent as %q: a client reads it as SSE and finds no event", proto.MediaType, run.ex.Transport.ContentType)
		return
	}
	w := watch(ctx.Done(), peek, consumer, run.frame)
	end := time.Since(run.start)
	run.arrived(end) // the silence before the end counts too
	run.ex.Transport.Took = end
	run.ex.Transport.Events, run.ex.Transport.Comments = w.Events, w.Comments
	run.ex.Violation, run.activeRun = w.Violation, w.ActiveRun
	run.ex.Truncated, run.ex.Warnings = w.Truncated, w.Warnings
	run.ex.Runs = consumer.Runs()
	if p, ok := consumer.Pending(); ok {
		run.ex.Interrupted = &p
		state, _ := consumer.State().(agui.JSONState)
		run.ex.next, run.ex.nextErr = NextInput(run.ex.Sent, state.Value(), consumer.Messages())
	}
	run.ex.Notes = append(run.ex.Notes, w.Notes...)
	switch {
	case errors.Is(context.Cause(ctx), errTooLong), errors.Is(context.Cause(ctx), errStopped): // however the reading ended after the cut
		run.ended(ctx, w.Err)
	case errors.Is(w.Err, io.EOF):
		run.ex.ReadToEnd = true
		if w.Cut != nil {
			run.ex.Failures = append(run.ex.Failures, *w.Cut)
		}
	case w.OverBound() != "":
		run.fail(agui.Limit.ID(), "%s is over the engine's %d MiB bound: the stream was not read further", w.OverBound(), agui.MaxEventBytes>>20)
		run.ex.Truncated = ""
	case w.Framing != nil:
		run.ex.Failures = append(run.ex.Failures, *w.Framing)
		run.ex.Truncated = ""
	case NotGzip(w.Err):
		run.fail(rules.Unjudged, "the answer is not the gzip it says it is: %v", w.Err)
		run.ex.Truncated = ""
	default:
		run.ended(ctx, w.Err)
	}
}

// frame notes one frame's arrival, and keeps it if asked; an event the
// run is to stop at stops it.
func (run *reading) frame(f script.Frame, _ agui.Judgement) bool {
	now := time.Since(run.start)
	f.After, run.lastFrame = now-run.lastFrame, now
	if f.Event != nil {
		run.events++
		if len(run.types) < MaxStoppedTypes {
			run.types = append(run.types, script.TypeOf(f.Event))
		}
	}
	if run.Keep {
		if run.kept += script.FrameSize(f); run.kept > script.MaxBytes { // as the script writes it: an empty comment is some 50 bytes
			run.stop(errTooLong)
			return false
		}
		f.Event = bytes.Clone(f.Event)
		run.ex.Frames = append(run.ex.Frames, f)
	}
	if f.Event != nil && run.Stop != nil && run.Stop.After == 0 && run.events == run.Stop.Events {
		run.stop(errStopped) // this event is still judged; none after it
		return false
	}
	return true
}

// arrived notes the end of a silence.
func (run *reading) arrived(now time.Duration) {
	run.ex.Transport.LongestGap = max(run.ex.Transport.LongestGap, now-run.lastArrival)
	run.lastArrival = now
}

// arrivals times every read of the body that brings bytes: a silence is
// a time no byte came, not the time between frames (an event sent a byte
// at a time is no silence).
type arrivals struct {
	body io.Reader
	run  *reading
}

func (a arrivals) Read(p []byte) (int, error) {
	n, err := a.body.Read(p)
	if n > 0 {
		a.run.received, a.run.lastBytes = a.run.received+n, time.Since(a.run.start)
		a.run.arrived(a.run.lastBytes)
	}
	return n, err
}

// ended words a run that ended by an error: the timeout, the caller, the
// size bound, or the connection. A truncation the timeout, the caller or
// the bound caused is not the stream's finding.
func (run *reading) ended(ctx context.Context, err error) {
	cause := context.Cause(ctx)
	what, how := breakOf(err)
	switch {
	case errors.Is(cause, errStopped):
		run.ex.Stopped = &Stopped{Events: run.events, At: time.Since(run.start), Types: run.types}
		run.ex.Truncated = "" // the tester cut it
	case errors.Is(cause, errTooLong):
		run.fail(rules.TooLong, "the stream is over %d MiB as a script, more than a script may hold: it was cut there", script.MaxBytes>>20)
		run.ex.Truncated = ""
	case errors.Is(cause, errTimeout) && run.ex.Transport.Status == 0:
		run.fail(rules.Timeout, "no answer within %s: the agent sent no response headers", run.timeout)
	case errors.Is(cause, errTimeout) && run.received == 0:
		run.fail(rules.Timeout, "the stream was still open after %s, and nothing was sent on it", run.timeout)
		run.ex.Truncated = ""
	case errors.Is(cause, errTimeout) && run.ex.Transport.Events+run.ex.Transport.Comments == 0:
		run.fail(rules.Timeout, "the stream was still open after %s: %d bytes came on it, no whole event or comment, the last %s before the cut",
			run.timeout, run.received, round(time.Since(run.start)-run.lastBytes))
		run.ex.Truncated = ""
	case errors.Is(cause, errTimeout):
		run.fail(rules.Timeout, "the stream was still open after %s: %d events and %d comments so far, the last %s before the cut",
			run.timeout, run.ex.Transport.Events, run.ex.Transport.Comments, round(time.Since(run.start)-run.lastFrame))
		run.ex.Truncated = ""
	case ctx.Err() != nil:
		run.fail(rules.Interrupted, "the run was interrupted: %v", cause)
		run.ex.Truncated = ""
	case run.ex.Transport.Status == 0:
		run.fail(rules.Unreachable, "%v", err)
	case run.ex.Truncated != "":
		run.ex.Truncated += " (" + what + how + ")"
	// After a broken rule the engine judges nothing more, and says nothing
	// of truncation: the runs it saw until then word the break.
	case run.ex.Violation != nil && run.activeRun != "":
		run.fail(rules.StreamBroken, "%s while run %q was active%s", what, run.activeRun, how)
	case run.ex.Violation != nil:
		run.fail(rules.StreamBroken, "%s after the stream broke a rule%s", what, how)
	default:
		run.fail(rules.StreamBroken, "%s after every run ended%s", what, how)
	}
}
