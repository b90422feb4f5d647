// Package effects is the edge of the client: it performs the Cmds the
// core's Update returns. It posts a run's RunAgentInput, reads the SSE
// stream, has the AG-UI 1.x consumer engine judge each event, and feeds
// the judgement back as a Msg tagged with the run's generation.
package effects

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/agui/sse"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// bigEvent is the size from which an event's decoding gets a task of the
// page's main thread to itself: see yieldToPage.
const bigEvent = 64 << 10

// Client talks to an AG-UI endpoint. In the browser it posts with fetch
// and reads the body's ReadableStream as the server flushes; elsewhere it
// uses net/http.
type Client struct {
	Endpoint string // absolute URL of POST /api/agent-analysis
}

// Stream posts the run's RunAgentInput, then sends one Received per event
// and finally one StreamClosed or StreamFailed. It stops reading at the
// first event the engine rejects: nothing later of the stream can count.
// Once ctx is cancelled it closes the response body, which aborts the
// request (the server sees the client go), and reads no further. A Msg
// already on its way may still be delivered after the cancel: Update
// ignores it, the run's connection being no longer open.
func (c Client) Stream(ctx context.Context, run core.Run, send func(core.Msg)) {
	fail := func(kind core.FailureKind, broke agui.Rule, format string, args ...any) {
		if ctx.Err() == nil {
			send(core.StreamFailed{Generation: run.Generation, Kind: kind, Broke: broke, Reason: core.Clip(fmt.Sprintf(format, args...))})
		}
	}
	in, consumer, err := engine(run, yieldToPage) // a big snapshot is read in several tasks
	var refused *agui.ResumeError
	switch {
	case errors.As(err, &refused): // Update checks what the engine checks: this is a bug, said so
		fail(core.Refusal, "", "the answer was not sent: %v", err)
		return
	case err != nil:
		fail(core.Transport, "", "%v", err)
		return
	}
	start := time.Now()
	body, f := c.open(ctx, in)
	if f != nil {
		fail(core.Transport, "", "%s", f)
		return
	}
	defer body.Close()
	stop := context.AfterFunc(ctx, func() { body.Close() })
	defer stop()
	events := sse.NewReader(body, agui.MaxEventBytes)
	for {
		data, err := events.Next()
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, io.EOF):
			send(core.StreamClosed{Generation: run.Generation, Truncated: consumer.End()})
			return
		case errors.Is(err, sse.ErrEventTooLarge):
			fail(core.Protocol, agui.Limit, "an event is larger than %d MiB", agui.MaxEventBytes>>20)
			return
		case err != nil:
			fail(core.Transport, "", "the stream broke: %v", err)
			return
		}
		big := len(data) >= bigEvent
		if big {
			yieldToPage()
		}
		msg := Judge(run, consumer, data, time.Since(start), time.Now())
		if big {
			yieldToPage()
		}
		send(msg)
		if msg.Judgement.Violation != nil {
			return // the engine accepts nothing more of this stream
		}
	}
}

// response is what the platform's post returns: enough to check it.
type response struct {
	status      int
	contentType string
	body        io.ReadCloser
}

// open posts the run's input and checks the answer is an event stream.
func (c Client) open(ctx context.Context, in agui.Input) (io.ReadCloser, error) {
	payload, _, err := in.Request("")
	if err != nil {
		return nil, err
	}
	resp, err := c.post(ctx, payload)
	if err != nil {
		return nil, fmt.Errorf("the request failed: %v", err)
	}
	if resp.status != http.StatusOK {
		defer resp.body.Close()
		var p problemDetails
		json.NewDecoder(io.LimitReader(resp.body, 4<<10)).Decode(&p) // best effort: the status says enough
		return nil, refused(resp.status, p)
	}
	if mt, _, _ := mime.ParseMediaType(resp.contentType); mt != "text/event-stream" {
		resp.body.Close()
		return nil, fmt.Errorf("the response is %q, not an event stream", resp.contentType)
	}
	return resp.body, nil
}

// Judge has the run's engine judge one event, received at (since the
// request) and now (the wall clock), and is the Msg that says so. When the
// event left the requested run interrupted, the Msg carries the
// conversation so far: the resumed run's input needs it, and the person
// may answer before the stream ends.
func Judge(run core.Run, c *agui.Consumer, data []byte, at time.Duration, now time.Time) core.Received {
	j := c.Feed(data)
	msg := core.Received{Generation: run.Generation, At: at, Now: now, JSON: append([]byte(nil), data...), Judgement: j}
	if _, interrupted := c.Pending(); interrupted {
		msg.Conversation = jsonpatch.Encode(jsonpatch.NewArray(c.Messages()))
	}
	return msg
}

// Engine is the input of a run and the AG-UI engine that judges its
// stream, as the runtime makes them: the services state, refusals failing
// the run, and a resumed run's engine told what it continues.
func Engine(run core.Run) (agui.Input, *agui.Consumer, error) { return engine(run, nil) }

func engine(run core.Run, yield func()) (agui.Input, *agui.Consumer, error) {
	in, err := run.Input()
	if err != nil {
		return agui.Input{}, nil, err
	}
	state := core.NewServices()
	state.Yield = yield
	opts := agui.Options{State: state, Refusals: agui.Fail}
	if run.Resume != nil {
		opts.Continues = run.Resume.Pending
	}
	c, err := agui.NewConsumer(in, opts)
	return in, c, err
}
