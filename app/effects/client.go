// Package effects is the edge of the client: it performs the Cmds the
// core's Update returns. It posts a run's RunAgentInput, reads the SSE
// stream, decodes AG-UI events with the SDK, and feeds each back as a Msg
// tagged with the run's generation.
package effects

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/types"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/sse"
)

// MaxEventBytes bounds one SSE event's data.
const MaxEventBytes = 1 << 20

// Client talks to an AG-UI endpoint. In the browser it posts with fetch
// and reads the body's ReadableStream as the server flushes; elsewhere it
// uses net/http.
type Client struct {
	Endpoint string // absolute URL of POST /api/agent-analysis
}

// Stream posts the run's RunAgentInput, then sends one ReceivedEvent per
// event and finally one StreamClosed or StreamFailed. Once ctx is
// cancelled it closes the response body, which aborts the request (the
// server sees the client go), and reads no further. A Msg already on its
// way may still be delivered after the cancel: Update ignores it, the
// run's generation being no longer active.
func (c Client) Stream(ctx context.Context, run core.Run, send func(core.Msg)) {
	fail := func(f *failure) {
		if ctx.Err() == nil {
			send(core.StreamFailed{Generation: run.Generation, Kind: f.kind, Reason: f.reason})
		}
	}
	start := time.Now()
	body, f := c.open(ctx, run)
	if f != nil {
		fail(f)
		return
	}
	defer body.Close()
	stop := context.AfterFunc(ctx, func() { body.Close() })
	defer stop()

	events := sse.NewReader(body, MaxEventBytes)
	for {
		data, err := events.Next()
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, io.EOF):
			send(core.StreamClosed{Generation: run.Generation})
			return
		case errors.Is(err, sse.ErrEventTooLarge):
			fail(protocolFailure("an event is larger than 1 MiB"))
			return
		case err != nil:
			fail(transportFailure("the stream broke: %v", err))
			return
		}
		ev, err := DecodeEvent(data)
		if err != nil {
			fail(err.(*failure)) // the run fails: read no further
			return
		}
		send(core.ReceivedEvent{Generation: run.Generation, Event: ev, JSON: append([]byte(nil), data...), At: time.Since(start)})
	}
}

// response is what the platform's post returns: enough to check it.
type response struct {
	status      int
	contentType string
	body        io.ReadCloser
}

// open posts the run's input and checks the answer is an event stream.
func (c Client) open(ctx context.Context, run core.Run) (io.ReadCloser, *failure) {
	payload, err := json.Marshal(RunInput(run))
	if err != nil {
		return nil, transportFailure("%v", err)
	}
	resp, err := c.post(ctx, payload)
	if err != nil {
		return nil, transportFailure("the request failed: %v", err)
	}
	if resp.status != http.StatusOK {
		defer resp.body.Close()
		var p problem
		json.NewDecoder(io.LimitReader(resp.body, 4<<10)).Decode(&p) // best effort: the status says enough
		return nil, refused(resp.status, p)
	}
	if mt, _, _ := mime.ParseMediaType(resp.contentType); mt != "text/event-stream" {
		resp.body.Close()
		return nil, transportFailure("the response is %q, not an event stream", resp.contentType)
	}
	return resp.body, nil
}

// RunInput is the AG-UI RunAgentInput of a run: no tools, messages or
// context, an empty state, and the scenario in forwardedProps.
func RunInput(run core.Run) types.RunAgentInput {
	return types.RunAgentInput{
		ThreadID:       run.ThreadID,
		RunID:          run.RunID,
		State:          map[string]any{},
		Messages:       []types.Message{},
		Tools:          []types.Tool{},
		Context:        []types.Context{},
		ForwardedProps: map[string]any{"scenario": run.Scenario},
	}
}
