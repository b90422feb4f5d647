// Package effects is the edge of the client: it performs the Cmds the
// core's Update returns. It posts a run's RunAgentInput, reads the SSE
// stream, has the AG-UI 1.0 consumer engine judge each event, and feeds
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

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/patch"
	"github.com/agent-analysis/agent-analysis/app/protocol"
	"github.com/agent-analysis/agent-analysis/app/sse"
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
	fail := func(kind core.FailureKind, broke protocol.Rule, format string, args ...any) {
		if ctx.Err() == nil {
			send(core.StreamFailed{Generation: run.Generation, Kind: kind, Broke: broke, Reason: core.Clip(fmt.Sprintf(format, args...))})
		}
	}
	in, consumer, err := engine(run, yieldToPage) // a big snapshot is read in several tasks
	var refused *protocol.ResumeError
	switch {
	case errors.As(err, &refused): // Update checks what the engine checks: this is a bug, said so
		fail(core.Refusal, protocol.Rule{}, "the answer was not sent: %v", err)
		return
	case err != nil:
		fail(core.Transport, protocol.Rule{}, "%v", err)
		return
	}
	start := time.Now()
	body, f := c.open(ctx, in)
	if f != nil {
		fail(core.Transport, protocol.Rule{}, "%s", f)
		return
	}
	defer body.Close()
	stop := context.AfterFunc(ctx, func() { body.Close() })
	defer stop()
	events := sse.NewReader(body, protocol.MaxEventBytes)
	for {
		data, err := events.Next()
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, io.EOF):
			send(core.StreamClosed{Generation: run.Generation, Truncated: consumer.End()})
			return
		case errors.Is(err, sse.ErrEventTooLarge):
			fail(core.Protocol, protocol.Limit, "an event is larger than %d MiB", protocol.MaxEventBytes>>20)
			return
		case err != nil:
			fail(core.Transport, protocol.Rule{}, "the stream broke: %v", err)
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
		if msg.Step.Violation != nil {
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
func (c Client) open(ctx context.Context, in protocol.Input) (io.ReadCloser, error) {
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
		var p problem
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
func Judge(run core.Run, c *protocol.Consumer, data []byte, at time.Duration, now time.Time) core.Received {
	step := c.Feed(data)
	msg := core.Received{Generation: run.Generation, At: at, Now: now, JSON: append([]byte(nil), data...), Step: step}
	if _, interrupted := c.Pending(); interrupted {
		msg.Conversation = patch.Encode(patch.NewArray(c.Messages()))
	}
	return msg
}

// Input is the AG-UI RunAgentInput of a run. A fresh run has no messages,
// tools or context, the empty services state, and the scenario in
// forwardedProps. A resumed run (run.Resume) is built from the same input
// with the thread's state and conversation, and the answers as its resume
// list, by the engine (Pending.Resume), which refuses an answer that does
// not cover every interrupt before anything is sent. The engine adds
// protocolVersion when it sends it.
func Input(run core.Run) (protocol.Input, error) {
	state, messages := core.NewWire(nil), json.RawMessage("[]")
	if r := run.Resume; r != nil {
		state = r.State
		if r.Messages != nil {
			messages = r.Messages
		}
	}
	data, err := json.Marshal(struct {
		ThreadID       string            `json:"threadId"`
		RunID          string            `json:"runId"`
		State          core.Wire         `json:"state"`
		Messages       json.RawMessage   `json:"messages"`
		Tools          []struct{}        `json:"tools"`
		Context        []struct{}        `json:"context"`
		ForwardedProps map[string]string `json:"forwardedProps"`
	}{run.ThreadID, run.RunID, state, messages, []struct{}{}, []struct{}{}, map[string]string{"scenario": run.Scenario}})
	if err != nil {
		return protocol.Input{}, err
	}
	in, _, err := protocol.ReadInput(data)
	if err != nil || run.Resume == nil {
		return in, err
	}
	return run.Resume.Pending.Resume(in, run.RunID, run.Resume.Answers, run.Resume.At)
}

// Engine is the input of a run and the AG-UI engine that judges its
// stream, as the runtime makes them: the services state, refusals failing
// the run, and a resumed run's engine told what it continues.
func Engine(run core.Run) (protocol.Input, *protocol.Consumer, error) { return engine(run, nil) }

func engine(run core.Run, yield func()) (protocol.Input, *protocol.Consumer, error) {
	in, err := Input(run)
	if err != nil {
		return protocol.Input{}, nil, err
	}
	state := core.NewServices()
	state.Yield = yield
	opts := protocol.Options{State: state, Refusals: protocol.Fail}
	if run.Resume != nil {
		opts.Continues = run.Resume.Pending
	}
	c, err := protocol.NewConsumer(in, opts)
	return in, c, err
}
