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
	in, err := Input(run)
	if err != nil {
		fail(core.Transport, protocol.Rule{}, "%v", err)
		return
	}
	state := core.NewServices()
	state.Yield = yieldToPage // a big snapshot is read in several tasks
	consumer, err := protocol.NewConsumer(in, protocol.Options{State: state, Refusals: protocol.Fail})
	if err != nil {
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
		step := consumer.Feed(data)
		if big {
			yieldToPage()
		}
		send(core.Received{Generation: run.Generation, At: time.Since(start), JSON: append([]byte(nil), data...), Step: step})
		if step.Violation != nil {
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

// Input is the AG-UI RunAgentInput of a run: no messages, tools or
// context, the empty services state, and the scenario in forwardedProps.
// The engine adds protocolVersion when it sends it.
func Input(run core.Run) (protocol.Input, error) {
	data, err := json.Marshal(struct {
		ThreadID       string            `json:"threadId"`
		RunID          string            `json:"runId"`
		State          core.Wire         `json:"state"`
		Messages       []struct{}        `json:"messages"`
		Tools          []struct{}        `json:"tools"`
		Context        []struct{}        `json:"context"`
		ForwardedProps map[string]string `json:"forwardedProps"`
	}{run.ThreadID, run.RunID, core.NewWire(nil), []struct{}{}, []struct{}{}, []struct{}{}, map[string]string{"scenario": run.Scenario}})
	if err != nil {
		return protocol.Input{}, err
	}
	in, _, err := protocol.ReadInput(data)
	return in, err
}
